import type { Integration } from '@/db/schema';
import { DeliveryStateCells } from '@/components/console/delivery-state-cells';
import { TestNoticeForm } from '@/components/console/test-notice-form';
import type { ActionResult } from '@/lib/flows/auth/action';
import { CONTACT_NOT_EMAILED, EMAIL_NOT_CONFIGURED_FOR_INTEGRATION, EMAIL_NOT_CONFIGURED_FOR_PORTAL, NO_WEBHOOK } from '@/lib/reactions/alerts/email-status';
import { ALERT_CHANNEL_LABELS } from '@/lib/presentation/alert-labels';
import { maskWebhookUrl } from '@/lib/platform/security/outbound-urls';
import type { TestOutcome } from '@/lib/reactions/alerts/test-outcome';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { conditionLabel } from '@/lib/reactions/integrator-notifications/labels';
import { notificationOptOuts, notificationSwitches, recentNotifications } from '@/lib/reactions/integrator-notifications/preferences';
import { resendable } from '@/lib/reactions/integrator-notifications/resend';
import { notificationSettings } from '@/lib/reactions/integrator-notifications/settings';
import { NotificationSwitches, RemoveWebhookForm, ResendForm, WebhookForm } from './notification-controls';

const RECIPIENT_LABELS = { technical: 'Contacto técnico', billing: 'Contacto de facturación', webhook: 'Webhook' } as const;

type Action<T> = (input: unknown) => Promise<ActionResult<T>>;

/** The server actions that change one integration's notifications: the console's or the portal's. */
export interface NotificationActions {
  save: Action<{ secret: string; saved: string }>;
  remove: Action<undefined>;
  setEnabled: Action<unknown>;
  sendTest: Action<TestOutcome>;
  /** "Reenviar" a notice sent to the webhook (lib/reactions/integrator-notifications/resend.ts). */
  resend: Action<TestOutcome>;
}

/**
 * An integration's webhook (read back with its query and user part masked, the signing secret shown
 * only once), which recipient gets which kind, and its latest notifications with their state. The
 * console (for an administrator, integrationId named) and the portal (for an owner, the session's
 * integration) show the same thing through the same services; `actions` absent: read only.
 */
export async function NotificationsPanel({ integration, actions, integrationId }: { integration: Integration; actions?: NotificationActions; integrationId?: number }) {
  const [optOuts, recent] = await Promise.all([notificationOptOuts(integration.id), recentNotifications(integration.id)]);
  const emailConfigured = notificationSettings().email !== undefined;
  const contactEmail = { technical: integration.technicalContactEmail, billing: integration.billingContactEmail, webhook: integration.notificationWebhookUrl };
  const groups = notificationSwitches(optOuts);
  const hidden = integrationId === undefined ? undefined : { integrationId };
  return (
    <>
      {!emailConfigured && (
        <p className="notice warn" data-testid="email-not-configured">
          {integrationId === undefined ? EMAIL_NOT_CONFIGURED_FOR_PORTAL : EMAIL_NOT_CONFIGURED_FOR_INTEGRATION}
        </p>
      )}
      <h3>Webhook</h3>
      <p data-testid="webhook-current">
        {integration.notificationWebhookUrl ? <span className="mono break-anywhere">{maskWebhookUrl(integration.notificationWebhookUrl)}</span> : <span className="muted">{emailConfigured ? NO_WEBHOOK.withEmail : NO_WEBHOOK.withoutEmail}</span>}
      </p>
      {actions && (
        <div className="stack">
          <WebhookForm integrationId={integrationId} hasWebhook={integration.notificationWebhookUrl !== null} save={actions.save} />
          {integration.notificationWebhookUrl && (
            <>
              <p className="small muted">
                El aviso de prueba («prueba») llega firmado como cualquier aviso, con sus reintentos; su resultado aparece en «Últimos avisos».
              </p>
              <TestNoticeForm action={actions.sendTest} hidden={hidden} testId="webhook-test" />
              <RemoveWebhookForm integrationId={integrationId} remove={actions.remove} />
            </>
          )}
        </div>
      )}
      <h3>Qué recibe cada destinatario</h3>
      <div className="grid grid-3">
        {groups.map((group) => (
          <div key={group.recipient} data-testid={`notification-recipient-${group.recipient}`}>
            <h4>{RECIPIENT_LABELS[group.recipient]}</h4>
            {group.recipient !== 'webhook' && (
              <p className="small">
                {contactEmail[group.recipient] ?? <span className="muted">Sin correo registrado: no recibe avisos.</span>}
                {contactEmail[group.recipient] && !emailConfigured && <span className="muted"> · {CONTACT_NOT_EMAILED}</span>}
              </p>
            )}
            <NotificationSwitches integrationId={integrationId} rows={group.rows} setEnabled={actions?.setEnabled} />
          </div>
        ))}
      </div>
      <h3>Últimos avisos</h3>
      {recent.length === 0 ? (
        <p className="muted">Todavía no se ha enviado ningún aviso.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Últimos avisos" tabIndex={0}>
          <table className="data stacked" data-testid="integration-notification-list">
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Aviso</th>
                <th>Para</th>
                <th>Estado</th>
                <th className="num">Intentos</th>
                <th>Último error</th>
                <th>Contenido</th>
              </tr>
            </thead>
            <tbody>
              {recent.map((row) => (
                <tr key={row.id} data-status={row.status}>
                  <td className="nowrap" data-label="Fecha">
                    {formatDateTime(row.createdAt)}
                  </td>
                  <td data-label="Aviso">{row.title || conditionLabel(row.condition)}</td>
                  <td className="small" data-label="Para">
                    <span>
                      {row.recipient ? RECIPIENT_LABELS[row.recipient] : ALERT_CHANNEL_LABELS[row.channel]} · <span className="mono">{row.target}</span>
                    </span>
                  </td>
                  <DeliveryStateCells delivery={row} />
                  <td className="small" data-label="Contenido">
                    <div>
                      <details data-testid="notification-payload">
                        <summary>Ver el aviso (JSON)</summary>
                        <pre className="mono break-anywhere" style={{ whiteSpace: 'pre-wrap' }}>
                          {row.payloadJson}
                        </pre>
                      </details>
                      {actions && resendable(row) && integration.notificationWebhookUrl && (
                        <ResendForm integrationId={integrationId} deliveryId={row.id} resend={actions.resend} />
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
