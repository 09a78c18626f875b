import { tokenRevoked as tokenRevokedEvent } from '@/lib/core/credentials/events';
import { defineNotificationKind, on, type IntegrationNamed } from './notice';
import { SAMPLE_TOKEN, tokenDatum, tokenName, type TokenFacts } from './credentials';

/** A token revoked: it no longer works. Once per token. */
export const tokenRevoked = defineNotificationKind({
  kind: 'token_revoked',
  tipo: 'token_revocado',
  contact: 'technical',
  label: 'Token revocado',
  emailLabels: { revocado: 'Revocado' },
  notice: ({ integration, token }: { integration: IntegrationNamed; token: TokenFacts & { revokedAt: Date } }) => ({
    integration,
    key: `token_revocado:${token.id}`,
    titulo: 'Un token fue revocado',
    mensaje: `El token ${tokenName(token)} de «${integration.nombre}» fue revocado y ya no funciona. Las consultas con él responden como credenciales no válidas.`,
    datos: { token: tokenDatum(token), token_id: token.id, revocado: token.revokedAt.toISOString() },
  }),
  docs: {
    when: 'Un token fue revocado: ya no funciona. Uno por token.',
    exampleId: 5,
    example: ({ integration, now }) => ({ integration, token: { ...SAMPLE_TOKEN, revokedAt: now } }),
  },
  heard: on(tokenRevokedEvent),
});
