import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { sourceClients } from '@/lib/sources';
import { SOURCE_NAMES, type BreakerState, type CallResult } from '@/lib/sources/guard';
import { formatShare } from '@/lib/presentation/share';
import { CertifierStatus, PaymentProviderStatus } from '@/components/invoices/certifier-status';
import { outsidePartiesView } from '@/lib/surfaces/console/outside-parties';
import { felSettings } from '@/lib/providers/fel/settings';
import { CERTIFIER_NAMES } from '@/lib/presentation/invoice-labels';

export const metadata: Metadata = { title: 'Fuentes' };

const STATE_LABELS: Record<BreakerState, string> = {
  closed: 'Cerrado: consultas normales',
  open: 'Abierto: las consultas fallan de inmediato',
  half_open: 'Semiabierto: probando si la fuente responde',
};

const RESULT_LABELS: Record<CallResult, string> = {
  ok: 'correcta',
  client_error: 'rechazo de la fuente (4xx)',
  server_error: 'error de la fuente (5xx)',
  timeout: 'sin respuesta dentro del límite',
  connection_error: 'sin conexión',
  circuit_open: 'circuito abierto',
  bulkhead_full: 'sin capacidad',
};

export default async function SourcesPage() {
  await requirePageUser('support');
  const guards = sourceClients().guards;
  const sources = SOURCE_NAMES.map((source) => guards[source].health());
  const { certifier, invoicing, payments, paymentsHealth, paymentsConfigured, providerName } = await outsidePartiesView();

  return (
    <>
      <PageHeader
        title="Fuentes"
        description="Estado del circuito de cada fuente consultada, tasa de error, tiempo de respuesta y último error de la última hora, según esta instancia del servicio."
      />
      <div className="table-wrap" role="region" aria-label="Estado de las fuentes" tabIndex={0}>
        <table className="data stacked" data-testid="sources">
          <thead>
            <tr>
              <th>Fuente</th>
              <th>Circuito</th>
              <th className="num">Consultas (1 h)</th>
              <th className="num">Tasa de error</th>
              <th className="num">Tiempo medio</th>
              <th className="num">Falladas sin enviar</th>
              <th>Último error</th>
            </tr>
          </thead>
          <tbody>
            {sources.map((health) => (
              <tr key={health.source} data-source={health.source}>
                <td data-label="Fuente">{SOURCE_LABELS[health.source]}</td>
                <td data-label="Circuito" data-state={health.state}>
                  {STATE_LABELS[health.state]}
                </td>
                <td className="num" data-label="Consultas (1 h)">
                  {health.callsLastHour.toLocaleString('es-GT')}
                </td>
                <td className="num" data-label="Tasa de error">
                  {formatShare(health.failuresLastHour, health.callsLastHour)}
                </td>
                <td className="num" data-label="Tiempo medio">
                  {health.meanMsLastHour === null ? '—' : `${Math.round(health.meanMsLastHour).toLocaleString('es-GT')} ms`}
                </td>
                <td className="num" data-label="Falladas sin enviar">
                  {health.fastFailuresLastHour.toLocaleString('es-GT')}
                </td>
                <td data-label="Último error">
                  {health.lastError ? (
                    <>
                      <div className="nowrap">{formatDateTime(health.lastError.at)}</div>
                      <div className="small muted">{RESULT_LABELS[health.lastError.result]}</div>
                      <div className="small mono">{health.lastError.detail}</div>
                    </>
                  ) : (
                    <span className="muted">Ninguno</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sources.every((health) => health.callsLastHour === 0 && health.fastFailuresLastHour === 0) && (
        <EmptyState title="Sin consultas en la última hora">Las cifras aparecen con las primeras consultas a cada fuente.</EmptyState>
      )}
      {(invoicing === 'on' || certifier.lastCallAt !== null) && <CertifierStatus health={certifier} certifierName={CERTIFIER_NAMES[felSettings().FEL_CERTIFIER] ?? null} />}
      {(paymentsConfigured || payments.lastWebhookAt !== null || payments.lastReadAt !== null) && (
        <PaymentProviderStatus name={providerName} activity={payments} health={paymentsHealth} />
      )}
    </>
  );
}
