import { tokenCreated as tokenCreatedEvent } from '@/lib/core/credentials/events';
import { defineNotificationKind, guatemalaTime, on, type IntegrationNamed } from './notice';
import { changedByOf, changedByWords, NOT_YOURS, SAMPLE_PORTAL_PERSON, SAMPLE_TOKEN, tokenDatum, tokenName, type ChangedBy, type TokenFacts } from './credentials';

/** A token just created (not an integration's first, which its creation hands over). Once per token. */
export const tokenCreated = defineNotificationKind({
  kind: 'token_created',
  tipo: 'token_creado',
  contact: 'technical',
  label: 'Token creado',
  emailLabels: { creado: 'Creado' },
  notice: ({ integration, token, by }: { integration: IntegrationNamed; token: TokenFacts & { createdAt: Date }; by: ChangedBy }) => ({
    integration,
    key: `token_creado:${token.id}`,
    titulo: 'Se creó un token',
    mensaje:
      `Se creó el token ${tokenName(token)} de «${integration.nombre}» (lo creó ${changedByWords(by)}).` +
      `${token.expiresAt ? ` Vence el ${guatemalaTime(token.expiresAt)} (hora de Guatemala).` : ''} ${NOT_YOURS}`,
    datos: { token: tokenDatum(token), token_id: token.id, creado: token.createdAt.toISOString(), vence: token.expiresAt?.toISOString() ?? null, hecho_por: changedByWords(by) },
  }),
  docs: {
    when: 'Se creó un token, en el portal o por la administración del servicio (`datos.hecho_por`). Uno por token.',
    exampleId: 6,
    example: ({ integration, now }) => ({ integration, token: { ...SAMPLE_TOKEN, id: 43, label: 'Servidor nuevo', tokenPrefix: 'tlk_81c0', createdAt: now }, by: SAMPLE_PORTAL_PERSON }),
  },
  heard: on(tokenCreatedEvent, ({ integration, token, actor }) => ({ integration, token, by: changedByOf(actor) })),
});
