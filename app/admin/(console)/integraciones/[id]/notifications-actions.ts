'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { NOTIFICATION_RECIPIENTS } from '@/db/schema';
import { type ActionResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { booleanField, idField } from '@/lib/presentation/form-fields';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';
import { awaitFirstAttempts, describeTestOutcome, type TestOutcome } from '@/lib/reactions/alerts/test-outcome';
import { NOTIFICATIONS, type NotificationKind } from '@/lib/reactions/integrator-notifications/kinds';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { removeNotificationWebhook, setNotificationEnabled, setNotificationWebhook } from '@/lib/reactions/integrator-notifications/preferences';
import { notificationSettings } from '@/lib/reactions/integrator-notifications/settings';
import { resendNotification } from '@/lib/reactions/integrator-notifications/resend';
import { sendTestNotification } from '@/lib/reactions/integrator-notifications/test-notice';

// The integration's notifications (lib/reactions/integrator-notifications). Administrators only: support
// staff get a refusal from the server, whatever their browser sends. Every change is audited.

// The notifications section, where these forms are: nothing else shows them.
const refresh = (integrationId: number) => revalidatePath(integrationPath(integrationId, 'notificaciones'));

export const setNotificationWebhookAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, url: z.string({ error: 'Escriba la URL.' }).trim().min(1, 'Escriba la URL.').max(2_000) }) },
  async ({ integrationId, url }, user) => {
    const result = await setNotificationWebhook(user.actor, integrationId, url, notificationSettings().targets);
    if (!result.ok) return { ok: false, message: result.error.message, fieldErrors: result.error.code === 'invalid' ? { url: result.error.message } : undefined };
    refresh(integrationId);
    return { ok: true, message: `Webhook guardado: ${result.value.saved}. Copie el secreto de firma ahora: no se vuelve a mostrar.`, data: { secret: result.value.secret, saved: result.value.saved } };
  },
);

export const removeNotificationWebhookAction = consoleAction({ role: 'admin', schema: z.object({ integrationId: idField }) }, async ({ integrationId }, user) => {
  const result = await removeNotificationWebhook(user.actor, integrationId);
  if (!result.ok) return { ok: false, message: result.error.message };
  refresh(integrationId);
  return { ok: true, message: result.value.removed ? 'Webhook quitado.' : 'La integración no tenía webhook.', data: undefined };
});

export const setNotificationEnabledAction = consoleAction(
  {
    role: 'admin',
    schema: z.object({
      integrationId: idField,
      recipient: z.enum(NOTIFICATION_RECIPIENTS),
      kind: z.enum(NOTIFICATIONS.kinds as [NotificationKind, ...NotificationKind[]]),
      enabled: booleanField,
    }),
  },
  async ({ integrationId, recipient, kind, enabled }, user) => {
    const result = await setNotificationEnabled(user.actor, integrationId, recipient, kind, enabled);
    if (!result.ok) return { ok: false, message: result.error.message };
    refresh(integrationId);
    return { ok: true, message: enabled ? 'Aviso activado.' : 'Aviso desactivado.', data: { enabled } };
  },
);

/** A signed "prueba" to the integration's webhook; waits for its first attempt to say how it went (the list shows the retries). */
export const sendTestNotificationAction = consoleAction({ role: 'admin', schema: z.object({ integrationId: idField }) }, async ({ integrationId }, user): Promise<ActionResult<TestOutcome>> => {
  const notifier = integratorNotifier();
  const result = await sendTestNotification(user.actor, integrationId, notifier);
  if (!result.ok) return { ok: false, message: result.error.message };
  const rows = await awaitFirstAttempts(result.value.deliveryIds, notifier.settings.webhookTimeoutMs + 3_000);
  refresh(integrationId);
  return { ok: true, data: describeTestOutcome(rows, notifier.settings.alerts.maxAttempts) };
});

/** "Reenviar": a notice sent to the integration's webhook, again with the same id; waits for its first attempt to say how it went. */
export const resendNotificationAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, entrega: idField }) },
  async ({ integrationId, entrega }, user): Promise<ActionResult<TestOutcome>> => {
    const notifier = integratorNotifier();
    const result = await resendNotification(user.actor, integrationId, entrega, notifier);
    if (!result.ok) return { ok: false, message: result.error.message };
    const rows = await awaitFirstAttempts([result.value.deliveryId], notifier.settings.webhookTimeoutMs + 3_000);
    refresh(integrationId);
    return { ok: true, data: describeTestOutcome(rows, notifier.settings.alerts.maxAttempts) };
  },
);
