// An integration's tokens: listed, one more, rotated with an overlap, revoked.
import { OVERLAP_PRESET_NAMES, parseOverlapPreset, type OverlapPreset } from '@/lib/core/credentials/token-state';
import { TOKEN_STATE_LABELS } from '@/lib/presentation/token-labels';
import { rotateToken } from '@/lib/flows/integration-management/service';
import { createToken, listTokens, revokeToken, type TokenView } from '@/lib/flows/integration-management/tokens';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { describeIntegration, TOKEN_SHOWN_ONCE, when } from './describe';

function describeToken(token: TokenView): string {
  const ends = token.revokedAt
    ? `revocado ${when(token.revokedAt)}`
    : token.expiresAt
      ? `${token.state === 'expired' ? 'venció' : 'deja de funcionar'} ${when(token.expiresAt)}`
      : 'sin vencimiento';
  const lastUsed = token.lastUsedAt ? when(token.lastUsedAt) : 'nunca';
  return `  token #${token.id} ${safe(token.tokenPrefix)}…  ${safe(token.label)}  ${TOKEN_STATE_LABELS[token.state]}  creado ${when(token.createdAt)}  último uso ${lastUsed}  ${ends}`;
}

function overlapOption(value: string | boolean | undefined): OverlapPreset {
  if (value === undefined) return 'none';
  const preset = parseOverlapPreset(value);
  if (!preset) throw new CliError(`--overlap admite ${OVERLAP_PRESET_NAMES.join(', ')}`);
  return preset;
}

function tokenIdArg(value: string | boolean | undefined, what: string): number {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new CliError(`${what} es el id de un token (integrations:tokens los lista)`);
  return Number(value);
}

export const tokenCommands: Commands = {
  'integrations:tokens': {
    usage: {
      args: ['<id|nombre>'],
      description: [
        'sus tokens: nombre, estado, creación, último uso (hasta un minuto de',
        'atraso) y vencimiento',
      ],
    },
    async run(args) {
      const integration = await integrationByArg(args);
      const tokens = await listTokens(integration.id);
      return { data: tokens, text: `#${integration.id} ${safe(integration.nombre)}\n${tokens.map(describeToken).join('\n')}` };
    },
  },
  'integrations:token-create': {
    usage: {
      args: ['<id|nombre> --label "..." [--expires AAAA-MM-DDTHH:MM:SSZ]'],
      description: ['un token más (se muestra una sola vez) junto a los demás'],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      let expiresAt: Date | null = null;
      if (typeof options.expires === 'string') {
        expiresAt = new Date(options.expires);
        if (Number.isNaN(expiresAt.getTime())) throw new CliError('--expires es una fecha y hora, como 2027-01-31T23:59:59Z (UTC) o 2027-01-31T17:59:59-06:00 (Guatemala)');
      }
      const created = unwrap(await createToken(CLI_ACTOR, integration.id, { label: typeof options.label === 'string' ? options.label : '', expiresAt }));
      return {
        data: { ...created.view, token: created.token },
        text: `${describeToken(created.view)}\n\n${TOKEN_SHOWN_ONCE}\n  ${created.token}`,
      };
    },
  },
  'integrations:rotate-token': {
    usage: {
      args: ['<id|nombre> [--token ID] [--overlap none|1h|24h|7d]'],
      description: [
        'reemplaza un token (si no se indica, el activo más reciente) por uno',
        'nuevo, que se muestra una sola vez; el anterior sigue funcionando',
        'durante la superposición (none: deja de funcionar de inmediato)',
      ],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      const tokenId = options.token === undefined ? undefined : tokenIdArg(options.token, '--token');
      const rotated = unwrap(await rotateToken(CLI_ACTOR, integration.id, { tokenId, overlap: overlapOption(options.overlap) }));
      return {
        data: { ...rotated.integration, token: rotated.token, tokenId: rotated.tokenView.id, tokenPrefix: rotated.tokenView.tokenPrefix, replaced: rotated.replaced },
        text: `${describeIntegration(rotated.integration)}\n${describeToken(rotated.replaced)}\n${describeToken(rotated.tokenView)}\n\nNuevo ${TOKEN_SHOWN_ONCE.charAt(0).toLowerCase()}${TOKEN_SHOWN_ONCE.slice(1)}\n  ${rotated.token}`,
      };
    },
  },
  'integrations:token-revoke': {
    usage: {
      args: ['<id|nombre> <id del token>'],
      description: ['el token deja de funcionar de inmediato en todas las instancias'],
    },
    async run(args) {
      const integration = await integrationByArg(args);
      const revoked = unwrap(await revokeToken(CLI_ACTOR, integration.id, tokenIdArg(args[1], 'el segundo argumento')));
      return { data: revoked, text: describeToken(revoked) };
    },
  },
};
