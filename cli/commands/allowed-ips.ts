// The addresses an integration's credentials are accepted from, and the latest refused.
import { latestRefusedAddresses } from '@/lib/core/credentials/refused-addresses';
import { setAllowedNetworks } from '@/lib/flows/integration-management/service';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { counted, describeIntegration, when } from './describe';

export const allowedIpCommands: Commands = {
  'integrations:allowed-ips': {
    usage: {
      args: ['<id|nombre> [--set "203.0.113.7, 198.51.100.0/24, 2001:db8::/32" | --anywhere]'],
      description: [
        'muestra o reemplaza sus direcciones IP permitidas (direcciones IPv4 o',
        'IPv6 y rangos CIDR); a las solicitudes desde otras direcciones se les',
        'responde como a credenciales desconocidas',
      ],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      if (options.set !== undefined && options.anywhere === true) throw new CliError('use --set o --anywhere, no ambas');
      let current = integration;
      if (options.anywhere === true) current = unwrap(await setAllowedNetworks(CLI_ACTOR, integration.id, []));
      else if (options.set !== undefined) {
        if (typeof options.set !== 'string' || options.set.trim() === '') throw new CliError('--set necesita las direcciones; para permitir cualquier dirección, use --anywhere');
        current = unwrap(await setAllowedNetworks(CLI_ACTOR, integration.id, options.set));
      }
      const refused = await latestRefusedAddresses(integration.id);
      return {
        data: { allowedNetworks: current.allowedNetworks, refused },
        text: [
          describeIntegration(current),
          '  últimas direcciones rechazadas:',
          ...(refused.length
            ? refused.map((entry) => `    ${safe(entry.address)}  ${when(entry.lastRefusedAt)}  ${counted(entry.refusals, 'rechazo', 'rechazos')}`)
            : ['    (ninguna)']),
        ].join('\n'),
      };
    },
  },
};
