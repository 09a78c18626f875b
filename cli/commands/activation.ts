// Whether an integration's credentials are accepted at all.
import { setActive } from '@/lib/flows/integration-management/service';
import { integrationByArg } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { describeIntegration } from './describe';

export const activationCommands: Commands = {
  'integrations:deactivate': {
    usage: {
      args: ['<id|nombre>'],
      description: ['rechaza sus credenciales (reactivate lo deshace)'],
    },
    async run(args) {
      const updated = unwrap(await setActive(CLI_ACTOR, (await integrationByArg(args)).id, false));
      return { data: updated, text: describeIntegration(updated) };
    },
  },
  'integrations:reactivate': {
    usage: {
      args: ['<id|nombre>'],
      description: ['vuelve a aceptar sus credenciales'],
    },
    async run(args) {
      const updated = unwrap(await setActive(CLI_ACTOR, (await integrationByArg(args)).id, true));
      return { data: updated, text: describeIntegration(updated) };
    },
  },
};
