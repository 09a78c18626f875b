'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { NOTIFICATION_RECIPIENTS } from '@/db/schema';
import { ACTION_MESSAGES, type ActionResult } from '@/lib/surfaces/portal/action';
import { awaitFirstAttempts, describeTestOutcome, type TestOutcome } from '@/lib/reactions/alerts/test-outcome';
import { booleanField, idField } from '@/lib/presentation/form-fields';
import { NOTIFICATIONS, type NotificationKind } from '@/lib/reactions/integrator-notifications/kinds';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { resendNotification } from '@/lib/reactions/integrator-notifications/resend';
import { portalAction } from '@/lib/surfaces/portal/action';
import { contactEmailFields, removePortalWebhook, sendPortalTestNotification, setPortalContactEmails, setPortalNotificationEnabled, setPortalWebhook } from '@/lib/surfaces/portal/notifications';
import { NOTIFICATION_MANAGERS } from '@/lib/surfaces/portal/page-access';

// "Notificaciones": owners set their integration's contacts, webhook and what each recipient
// receives, and send a test notice. Developers and billing users are refused
// here, on the server, whatever their browser sends. No action takes an integration id: it is
// always the session's.

const refresh = () => revalidatePath('/portal/notificaciones');

export const setPortalContactsAction = portalAction(
  {
    roles: NOTIFICATION_MANAGERS,
    schema: z.object(contactEmailFields),
  },
  async (emails, user) => {
    const result = await setPortalContactEmails(user, emails);
    if (!result.ok) {
      return result.error.code === 'invalid'
        ? { ok: false, message: ACTION_MESSAGES.invalid, fieldErrors: result.error.fieldErrors }
        : { ok: false, message: result.error.message };
    }
    if (result.value.changed) refresh();
    return { ok: true, message: result.value.changed ? 'Contactos guardados.' : 'Sin cambios: los contactos ya eran esos.', data: undefined };
  },
);

export const setPortalWebhookAction = portalAction(
  { roles: NOTIFICATION_MANAGERS, schema: z.object({ url: z.string({ error: 'Escriba la URL.' }).trim().min(1, 'Escriba la URL.').max(2_000) }) },
  async ({ url }, user) => {
    const result = await setPortalWebhook(user, url);
    if (!result.ok) return { ok: false, message: result.error.message, fieldErrors: result.error.code === 'invalid' ? { url: result.error.message } : undefined };
    refresh();
    return { ok: true, message: `Webhook guardado: ${result.value.saved}. Copie el secreto de firma ahora: no se vuelve a mostrar.`, data: { secret: result.value.secret, saved: result.value.saved } };
  },
);

export const removePortalWebhookAction = portalAction({ roles: NOTIFICATION_MANAGERS, schema: z.object({}) }, async (_input, user) => {
  const result = await removePortalWebhook(user);
  if (!result.ok) return { ok: false, message: result.error.message };
  refresh();
  return { ok: true, message: result.value.removed ? 'Webhook quitado.' : 'Tu integración no tenía webhook.', data: undefined };
});

export const setPortalNotificationEnabledAction = portalAction(
  {
    roles: NOTIFICATION_MANAGERS,
    schema: z.object({ recipient: z.enum(NOTIFICATION_RECIPIENTS), kind: z.enum(NOTIFICATIONS.kinds as [NotificationKind, ...NotificationKind[]]), enabled: booleanField }),
  },
  async ({ recipient, kind, enabled }, user) => {
    const result = await setPortalNotificationEnabled(user, recipient, kind, enabled);
    if (!result.ok) return { ok: false, message: result.error.message };
    refresh();
    return { ok: true, message: enabled ? 'Aviso activado.' : 'Aviso desactivado.', data: { enabled } };
  },
);

/** A signed "prueba" to the webhook; waits for its first attempt to say how it went (the list shows the retries). */
export const sendPortalTestNotificationAction = portalAction({ roles: NOTIFICATION_MANAGERS, schema: z.object({}) }, async (_input, user): Promise<ActionResult<TestOutcome>> => {
  const notifier = integratorNotifier();
  const result = await sendPortalTestNotification(user, notifier);
  if (!result.ok) return { ok: false, message: result.error.message };
  const rows = await awaitFirstAttempts(result.value.deliveryIds, notifier.settings.webhookTimeoutMs + 3_000);
  refresh();
  return { ok: true, data: describeTestOutcome(rows, notifier.settings.alerts.maxAttempts) };
});

/** "Reenviar": a notice sent to the webhook, again with the same id; waits for its first attempt to say how it went. */
export const resendPortalNotificationAction = portalAction(
  { roles: NOTIFICATION_MANAGERS, schema: z.object({ entrega: idField }) },
  async ({ entrega }, user): Promise<ActionResult<TestOutcome>> => {
    const notifier = integratorNotifier();
    const result = await resendNotification(user.actor, user.integrationId, entrega, notifier);
    if (!result.ok) return { ok: false, message: result.error.message };
    const rows = await awaitFirstAttempts([result.value.deliveryId], notifier.settings.webhookTimeoutMs + 3_000);
    refresh();
    return { ok: true, data: describeTestOutcome(rows, notifier.settings.alerts.maxAttempts) };
  },
);
