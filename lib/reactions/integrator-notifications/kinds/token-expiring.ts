import { defineNotificationKind, guatemalaTime, portalPage, type IntegrationNamed } from './notice';
import { SAMPLE_TOKEN, tokenDatum, tokenName, type TokenFacts } from './credentials';

// No event: a leased job looks every hour (tokens.ts) and drafts the warnings due.

/** The two warnings before a token expires: 7 days before, then 1 day before. */
export type ExpiryWarning = '7d' | '1d';

/** Which warning is due for a token expiring at `expiresAt` (null: none yet, or already expired). */
export function expiryWarningDue(expiresAt: Date, now = new Date()): ExpiryWarning | null {
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return null;
  if (left <= 24 * 3_600_000) return '1d';
  if (left <= 7 * 24 * 3_600_000) return '7d';
  return null;
}

export const tokenExpiring = defineNotificationKind({
  kind: 'token_expiring',
  tipo: 'token_por_vencer',
  contact: 'technical',
  label: 'Token por vencer',
  notice: ({ integration, token, warning }: { integration: IntegrationNamed; token: TokenFacts & { expiresAt: Date }; warning: ExpiryWarning }, context) => ({
    integration,
    // The expiry instant is in the key: a token whose expiry is moved gets its warnings again.
    key: `token_por_vencer:${token.id}:${warning}:${token.expiresAt.getTime()}`,
    titulo: warning === '1d' ? 'Un token vence mañana' : 'Un token vence en 7 días',
    mensaje:
      `El token ${tokenName(token)} de «${integration.nombre}» deja de funcionar el ${guatemalaTime(token.expiresAt)} (hora de Guatemala). ` +
      `Un propietario o un desarrollador de su integración puede rotarlo en el portal, en Credenciales (${portalPage(context, '/credenciales')}): ` +
      'el token nuevo se muestra una vez y el anterior sigue funcionando el tiempo que elija (nunca después de esa fecha), para cambiarlo en sus sistemas sin cortar el servicio.',
    datos: { token: tokenDatum(token), token_id: token.id, vence: token.expiresAt.toISOString(), aviso: warning },
  }),
  docs: {
    when: 'Un token con vencimiento deja de funcionar en 7 días, y de nuevo cuando falta 1 día (`datos.aviso`: `7d` o `1d`).',
    exampleId: 4,
    example: ({ integration }) => ({ integration, token: { ...SAMPLE_TOKEN, expiresAt: new Date('2026-12-01T06:00:00.000Z') }, warning: '7d' as const }),
  },
});
