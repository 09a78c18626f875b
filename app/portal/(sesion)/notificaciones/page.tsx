import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { NotificationsPanel } from '@/components/notifications/notifications-panel';
import { portalNotificationIntegration } from '@/lib/surfaces/portal/notifications';
import { NOTIFICATION_MANAGERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { removePortalWebhookAction, resendPortalNotificationAction, sendPortalTestNotificationAction, setPortalNotificationEnabledAction, setPortalWebhookAction } from './actions';
import { ContactsForm } from './contacts-form';

export const metadata: Metadata = { title: 'Notificaciones' };

const ACTIONS = { save: setPortalWebhookAction, remove: removePortalWebhookAction, setEnabled: setPortalNotificationEnabledAction, sendTest: sendPortalTestNotificationAction, resend: resendPortalNotificationAction };

// Notificaciones: the owner decides who at the integration is told what: its contacts' addresses,
// its webhook (the signing secret shown once) and each recipient's kinds, and reads the notices
// sent with their state. The same panel and services as the console's section.
export default async function PortalNotificationsPage() {
  const user = await requirePortalPage(NOTIFICATION_MANAGERS);
  const integration = await portalNotificationIntegration(user);
  return (
    <>
      <PageHeader
        title="Notificaciones"
        description="Los avisos del servicio a su integración, en español: por correo a sus contactos y, si configura uno, a su webhook firmado."
      />
      <section className="card" aria-labelledby="contacts-title">
        <h2 id="contacts-title">Contactos</h2>
        <ContactsForm technical={integration.technicalContactEmail} billing={integration.billingContactEmail} />
      </section>
      <section className="card" aria-labelledby="notifications-title" style={{ marginTop: '1rem' }} data-testid="integration-notifications">
        <h2 id="notifications-title">Webhook y avisos</h2>
        <NotificationsPanel integration={integration} actions={ACTIONS} />
      </section>
    </>
  );
}
