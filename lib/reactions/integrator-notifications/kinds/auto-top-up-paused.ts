import { and, eq, isNull } from 'drizzle-orm';
import { portalUsers } from '@/db/schema';
import { autoTopUpPaused as autoTopUpPausedEvent, type PausedAutoTopUp } from '@/lib/flows/auto-top-ups/events';
import { defineNotificationKind, on, portalPage } from './notice';

/** Automatic top-up paused after a charge and its retry failed: it stays off until an owner acts. Once per pause. */
export const autoTopUpPaused = defineNotificationKind({
  kind: 'auto_top_up_paused',
  tipo: 'recarga_automatica_en_pausa',
  contact: 'billing',
  label: 'Recarga automática en pausa',
  notice: (paused: PausedAutoTopUp, context) => ({
    integration: paused.integration,
    key: `recarga_automatica_en_pausa:${paused.integration.id}:${paused.chargeId}`,
    titulo: 'La recarga automática está en pausa',
    mensaje:
      `No pudimos cargar la tarjeta de la recarga automática de «${paused.integration.nombre}» (dos intentos): no se hará otro cargo hasta que el propietario la reactive ` +
      `o la desactive en el portal (${portalPage(context, '/recargas/automatica')}). Mientras tanto, el saldo no se recarga solo.`,
    datos: { motivo: paused.reason, en_pausa_desde: paused.pausedAt.toISOString() },
  }),
  docs: {
    when: 'El cargo de la recarga automática a la tarjeta guardada y su reintento fallaron (`datos.motivo`): la recarga automática queda en pausa hasta que el propietario la reactive o la desactive en el portal (Recargas, «Recarga automática»). También se envía por correo a los propietarios. Uno por pausa.',
    exampleId: 16,
    example: ({ integration, now }) => ({ integration, chargeId: 41, reason: 'declined: Fondos insuficientes.', pausedAt: now }),
  },
  heard: on(autoTopUpPausedEvent),
  // Only an owner can turn automatic top-up back on: each one is e-mailed too, as the billing contact's copy.
  async alsoEmailed(integration, tx) {
    const owners = await tx
      .select({ email: portalUsers.email })
      .from(portalUsers)
      .where(and(eq(portalUsers.integrationId, integration.id), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)));
    return owners.map((owner) => owner.email);
  },
});
