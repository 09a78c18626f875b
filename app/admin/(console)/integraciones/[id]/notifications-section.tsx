import type { Integration } from '@/db/schema';
import { NotificationsPanel } from '@/components/notifications/notifications-panel';
import { removeNotificationWebhookAction, resendNotificationAction, sendTestNotificationAction, setNotificationEnabledAction, setNotificationWebhookAction } from './notifications-actions';

const ACTIONS = { save: setNotificationWebhookAction, remove: removeNotificationWebhookAction, setEnabled: setNotificationEnabledAction, sendTest: sendTestNotificationAction, resend: resendNotificationAction };

/**
 * What the integrator is told (lib/reactions/integrator-notifications): administrators set its webhook and
 * which recipient gets which kind; support staff read it. The integration's owners change the same
 * things in the portal ("Notificaciones"), through the same panel and services.
 */
export async function NotificationsSection({ integration, isAdmin }: { integration: Integration; isAdmin: boolean }) {
  return (
    <section className="card" aria-labelledby="notifications-title" style={{ marginTop: '1rem' }} data-testid="integration-notifications">
      <h2 id="notifications-title">Notificaciones</h2>
      <p className="small muted">
        Avisos al integrador, en español: por correo a sus contactos y, si tiene, a su webhook firmado. Uno por condición en cada intervalo.
      </p>
      <NotificationsPanel integration={integration} integrationId={integration.id} actions={isAdmin ? ACTIONS : undefined} />
    </section>
  );
}
