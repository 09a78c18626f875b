// Which lookups an integration may make.
import type { IntegrationFlags } from '@/lib/core/integrations/flags';
import { setFlags } from '@/lib/flows/integration-management/service';
import { CliError } from '../errors';
import { integrationByArg, parseFlagList } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { describeIntegration } from './describe';

export const flagCommands: Commands = {
  'integrations:flags': {
    usage: {
      args: ['<id|nombre> [--enable consulta,...] [--disable consulta,...]'],
      description: ['habilita o deshabilita consultas'],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      const changes: Partial<IntegrationFlags> = {};
      for (const flag of parseFlagList(options.enable)) changes[flag] = true;
      for (const flag of parseFlagList(options.disable)) changes[flag] = false;
      if (Object.keys(changes).length === 0) throw new CliError('indique qué consultas cambiar con --enable, --disable o ambas');
      const updated = unwrap(await setFlags(CLI_ACTOR, integration.id, changes));
      return { data: updated, text: describeIntegration(updated) };
    },
  },
};
