import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { DeliveryStateCells } from '@/components/console/delivery-state-cells';
import { TestNoticeForm } from '@/components/console/test-notice-form';
import { EMAIL_NOT_CONFIGURED_FOR_ALERTS } from '@/lib/reactions/alerts/email-status';
import { ALERT_CHANNEL_LABELS } from '@/lib/presentation/alert-labels';
import { conditionLabel } from '@/lib/reactions/integrator-notifications/labels';
import { listAlertDeliveries } from '@/lib/reactions/alerts/list';
import { alertSettings, enabledChannels } from '@/lib/reactions/alerts/settings';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { formatQuetzales } from '@/lib/platform/money';
import type { SourceName } from '@/lib/sources/guard';
import { sendTestAlertAction } from './actions';
import { integrationPath, sectionOfAlertCondition } from '@/lib/surfaces/console/integration-sections';

export const metadata: Metadata = { title: 'Alertas' };

export default async function AlertsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const params = await searchParams;
  const after = typeof params.despues === 'string' ? params.despues : undefined;
  const page = await listAlertDeliveries(after);
  const settings = alertSettings();
  const channels = enabledChannels(settings);

  return (
    <>
      <PageHeader
        title="Alertas"
        description="Avisos a los administradores cuando el saldo de una integración baja de su umbral o se agota, y cuando una fuente cae: cada envío por webhook o correo, con sus intentos."
      />
      <p className="notice info" data-testid="alert-channels">
        {channels.length === 0
          ? 'No hay canales de alerta configurados (ALERT_WEBHOOK_URL, ALERT_SMTP_HOST): no se envían alertas.'
          : `Canales: ${channels.map((channel) => ALERT_CHANNEL_LABELS[channel]).join(' y ')}. Umbral predeterminado de saldo bajo: ${formatQuetzales(settings.lowBalanceDefaultCentavos)}. Como máximo una alerta por condición cada ${settings.repeatIntervalSeconds / 60} minutos.`}
      </p>
      {!settings.email && (
        <p className="notice warn" data-testid="email-not-configured">
          {EMAIL_NOT_CONFIGURED_FOR_ALERTS}
        </p>
      )}
      {user.role === 'admin' && channels.length > 0 && (
        <section className="card" aria-labelledby="alert-test-title">
          <h2 id="alert-test-title">Probar los canales</h2>
          <p className="small muted">Envía un aviso de prueba por {channels.map((channel) => ALERT_CHANNEL_LABELS[channel].toLowerCase()).join(' y por ')}, con sus reintentos; aparece en la lista.</p>
          <TestNoticeForm action={sendTestAlertAction} testId="alert-test" />
        </section>
      )}
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title={after ? 'No hay envíos anteriores.' : 'Todavía no se ha enviado ninguna alerta.'} />
        </div>
      ) : (
        <div className="table-wrap" role="region" aria-label="Envíos de alertas" tabIndex={0}>
          <table className="data stacked" data-testid="alert-deliveries">
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Condición</th>
                <th>Canal y destino</th>
                <th>Estado</th>
                <th className="num">Intentos</th>
                <th>Último error</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((delivery) => (
                <tr key={delivery.id} data-status={delivery.status}>
                  <td className="nowrap" data-label="Fecha">
                    {formatDateTime(delivery.createdAt)}
                  </td>
                  <td data-label="Condición">
                    {conditionLabel(delivery.condition)}
                    {delivery.integrationId !== null && (
                      <>
                        {': '}
                        <Link href={integrationPath(delivery.integrationId, sectionOfAlertCondition(delivery.condition))}>{delivery.integrationName ?? `Integración ${delivery.integrationId}`}</Link>
                      </>
                    )}
                    {delivery.source && `: ${SOURCE_LABELS[delivery.source as SourceName] ?? delivery.source}`}
                  </td>
                  <td className="small" data-label="Canal y destino">
                    <span>
                      <span className="nowrap">{ALERT_CHANNEL_LABELS[delivery.channel]}</span> · <span className="mono">{delivery.target}</span>
                    </span>
                  </td>
                  <DeliveryStateCells delivery={delivery} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(page.older || after) && (
        <nav className="pagination" aria-label="Páginas">
          {after ? (
            <Link className="button secondary" href="/admin/alertas">
              ← Más recientes
            </Link>
          ) : (
            <span />
          )}
          {page.older && (
            <Link className="button secondary" href={`/admin/alertas?${new URLSearchParams({ despues: page.older })}`}>
              Envíos anteriores →
            </Link>
          )}
        </nav>
      )}
    </>
  );
}
