import type { Integration } from '@/db/schema';
import { findIntegration } from '@/lib/flows/integration-management/service';
import { setIntegrationDetails, type DetailsResult } from '@/lib/flows/integration-management/details-service';
import { detailsFormFields } from '@/lib/flows/integration-management/details-form';
import { integratorNotifier } from '@/lib/reactions/integrator-notifications/notifier';
import { removeNotificationWebhook, setNotificationEnabled, setNotificationWebhook, type PreferenceResult } from '@/lib/reactions/integrator-notifications/preferences';
import type { NotificationKind } from '@/lib/reactions/integrator-notifications/kinds';
import type { NotificationRecipient } from '@/db/schema';
import { notificationSettings } from '@/lib/reactions/integrator-notifications/settings';
import { sendTestNotification, type TestNoticeResult } from '@/lib/reactions/integrator-notifications/test-notice';
import type { PortalUserSession } from './session';

// "Notificaciones": the services the console's notifications section calls,
// with the portal user as the audit actor and always the session's integration, never one a
// client names. The webhook's URL goes through the same SSRF rules (the environment's policy).

export async function portalNotificationIntegration(user: PortalUserSession): Promise<Integration> {
  const integration = await findIntegration(user.integrationId);
  if (!integration) throw new Error(`the session's integration ${user.integrationId} does not exist`);
  return integration;
}

/** The contacts form's two fields as the console's details form reads them (the service validates them). */
export const contactEmailFields = { technicalContactEmail: detailsFormFields.technicalContactEmail, billingContactEmail: detailsFormFields.billingContactEmail };

/** The two addresses notices are e-mailed to; names and phones stay as the console set them. */
export async function setPortalContactEmails(
  user: PortalUserSession,
  emails: { technicalContactEmail: string; billingContactEmail: string },
): Promise<DetailsResult<{ changed: boolean }>> {
  const result = await setIntegrationDetails(user.actor, user.integrationId, emails);
  return result.ok ? { ok: true, value: { changed: result.value.changed } } : result;
}

export async function setPortalWebhook(user: PortalUserSession, url: string): Promise<PreferenceResult<{ secret: string; saved: string }>> {
  return setNotificationWebhook(user.actor, user.integrationId, url, notificationSettings().targets);
}

export async function removePortalWebhook(user: PortalUserSession): Promise<PreferenceResult<{ removed: boolean }>> {
  return removeNotificationWebhook(user.actor, user.integrationId);
}

export async function setPortalNotificationEnabled(
  user: PortalUserSession,
  recipient: NotificationRecipient,
  kind: NotificationKind,
  enabled: boolean,
): Promise<PreferenceResult<unknown>> {
  return setNotificationEnabled(user.actor, user.integrationId, recipient, kind, enabled);
}

export async function sendPortalTestNotification(user: PortalUserSession, notifier = integratorNotifier()): Promise<TestNoticeResult> {
  return sendTestNotification(user.actor, user.integrationId, notifier);
}
