import { tokenRotated as tokenRotatedEvent } from '@/lib/core/credentials/events';
import { defineNotificationKind, guatemalaTime, on, type IntegrationNamed } from './notice';
import { changedByOf, changedByWords, NOT_YOURS, SAMPLE_PORTAL_PERSON, SAMPLE_TOKEN, tokenDatum, tokenName, type ChangedBy, type TokenFacts } from './credentials';

/** A token just rotated: the one replaced, the new one, and until when the old one works. Once per rotation. */
export const tokenRotated = defineNotificationKind({
  kind: 'token_rotated',
  tipo: 'token_rotado',
  contact: 'technical',
  label: 'Token rotado',
  emailLabels: { token_nuevo: 'Token nuevo', anterior_funciona_hasta: 'El anterior funciona hasta' },
  notice: ({ integration, replaced, token, by }: { integration: IntegrationNamed; replaced: TokenFacts; token: TokenFacts; by: ChangedBy }) => {
    const oldEnds = replaced.revokedAt ? 'ya no funciona' : replaced.expiresAt ? `sigue funcionando hasta el ${guatemalaTime(replaced.expiresAt)} (hora de Guatemala)` : 'sigue funcionando';
    return {
      integration,
      key: `token_rotado:${replaced.id}`,
      titulo: 'Se rotó un token',
      mensaje: `Se rotó el token ${tokenName(replaced)} de «${integration.nombre}» (lo rotó ${changedByWords(by)}): el nuevo es ${tokenName(token)} y el anterior ${oldEnds}. ${NOT_YOURS}`,
      datos: {
        token: tokenDatum(replaced),
        token_id: replaced.id,
        token_nuevo: tokenDatum(token),
        token_nuevo_id: token.id,
        anterior_funciona_hasta: replaced.revokedAt ? replaced.revokedAt.toISOString() : (replaced.expiresAt?.toISOString() ?? null),
        hecho_por: changedByWords(by),
      },
    };
  },
  docs: {
    when: 'Se rotó un token: el nuevo, y hasta cuándo funciona el anterior (`datos.anterior_funciona_hasta`). Uno por rotación.',
    exampleId: 7,
    example: ({ integration, now }) => ({
      integration,
      replaced: { ...SAMPLE_TOKEN, expiresAt: new Date(now.getTime() + 24 * 3_600_000) },
      token: { ...SAMPLE_TOKEN, id: 42, tokenPrefix: 'tlk_c27d' },
      by: SAMPLE_PORTAL_PERSON,
    }),
  },
  heard: on(tokenRotatedEvent, ({ integration, replaced, token, actor }) => ({ integration, replaced, token, by: changedByOf(actor) })),
});
