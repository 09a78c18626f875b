import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { hasRole } from '@/lib/surfaces/console/session';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { describeAuditActor } from '@/lib/presentation/audit-labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { formatQuetzales } from '@/lib/platform/money';
import { bankName } from '@/lib/platform/guatemala/banks';
import { TopUpStateBadge } from '@/components/top-ups/state-badge';
import type { TopUpRequestView } from '@/lib/flows/top-ups/requests';
import { AUTO_TOP_UP_STATE_LABELS, creditedCentavos, isImageSlip, ONLINE_PAYMENTS_OFF_NOTICE, TOP_UP_PAGE_SIZE, TOP_UP_STATE_LABELS, topUpsView } from '@/lib/surfaces/console/top-ups';
import { ApproveTopUpForm, DecisionNotices, RejectTopUpForm } from './decision-forms';
import type { OnlinePayment } from '@/db/schema';
import type { RefundSummary } from '@/lib/flows/online-top-ups/labels';
import { OnlinePaymentsTable } from '@/components/online-payments/online-payments-table';

export const metadata: Metadata = { title: 'Recargas pendientes' };

// Recargas pendientes: deposits integrators reported, oldest first, each with its slip (a photo
// shown, a PDF to download). An administrator approves (the money enters the ledger) or rejects
// with a reason; support reads. Below, the history: every decided request (approved, rejected, or
// cancelled by the integration), who decided and when, the latest first.
export default async function PendingTopUpsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const query = await searchParams;
  const after = query.despues;
  const historyAfter = typeof query.historial === 'string' ? query.historial : undefined;
  const { page, pending, sharing, history, onlinePayments, automatic, paymentsOn } = await topUpsView(typeof after === 'string' ? after : undefined, historyAfter);
  const requests = page.rows;
  const canDecide = hasRole(user, 'admin');
  return (
    <>
      <PageHeader
        title="Recargas pendientes"
        description="Depósitos y transferencias que las integraciones reportaron desde su portal. El saldo cambia solo al aprobarlos: compare el banco, la referencia, la fecha y el monto con el estado de cuenta bancario."
      />
      <DecisionNotices>
        {requests.length === 0 ? (
          <div className="card">
            <EmptyState title="No hay recargas pendientes de revisión." />
          </div>
        ) : (
          <>
          {(page.next || after) && (
            <p className="muted" data-testid="pending-top-ups-count">
              {`${pending.toLocaleString('es-GT')} solicitudes pendientes en total; se muestran de ${TOP_UP_PAGE_SIZE} en ${TOP_UP_PAGE_SIZE}, las más antiguas primero.`}
            </p>
          )}
          <ul className="stack plain-list" data-testid="pending-top-ups">
            {requests.map((request) => {
              const amount = formatQuetzales(request.amountCentavos);
              const slipHref = `/admin/recargas/${request.id}/boleta`;
              return (
                <li key={request.id} className="card" data-testid="pending-top-up">
                  <h2>
                    {amount} · {request.integrationName}
                  </h2>
                  <dl className="details">
                    <dt>Banco</dt>
                    <dd>{bankName(request.bank)}</dd>
                    <dt>Referencia</dt>
                    <dd data-testid="pending-top-up-reference">{request.reference}</dd>
                    <dt>Fecha del depósito</dt>
                    <dd>{request.depositDate.split('-').reverse().join('/')}</dd>
                    <dt>Reportada</dt>
                    <dd>
                      {formatDateTime(request.createdAt)} por {request.reporterEmail}
                    </dd>
                  </dl>
                  {sharing.has(request.id) && (
                    <p className="notice warn" role="note" data-testid="pending-top-up-shared">
                      {`Misma referencia en ${bankName(request.bank)} que ${sharing
                        .get(request.id)!
                        .map((other) => `la solicitud #${other.id} de «${other.integrationName}» (${other.reference}, ${formatQuetzales(other.amountCentavos)}, ${TOP_UP_STATE_LABELS[other.state].toLowerCase()})`)
                        .join(' y ')}: se reportaron antes de que las referencias se compararan por sus letras y números. Si es un solo depósito, se acredita una vez: rechace las demás.`}
                    </p>
                  )}
                  {request.slip === null ? (
                    <p className="muted">Sin boleta adjunta.</p>
                  ) : isImageSlip(request.slip.contentType) ? (
                    <figure>
                      {/* eslint-disable-next-line @next/next/no-img-element -- the slip is served by our own route, not optimizable */}
                      <img src={slipHref} alt={`Boleta del depósito ${request.reference} en ${bankName(request.bank)}`} className="slip-image" />
                    </figure>
                  ) : (
                    // A PDF is never opened in the console: its route answers it as a download.
                    <p>
                      <a href={slipHref} download>
                        Descargar la boleta (PDF)
                      </a>
                    </p>
                  )}
                  {canDecide && (
                    <div className="stack">
                      <ApproveTopUpForm
                        requestId={request.id}
                        nombre={request.integrationName}
                        reportedCentavos={request.amountCentavos}
                        deposit={`${bankName(request.bank)} con referencia ${request.reference}`}
                      />
                      <RejectTopUpForm requestId={request.id} />
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
          {page.next && <Pagination newer={after ? '/admin/recargas' : undefined} older={`/admin/recargas?${new URLSearchParams({ despues: page.next })}`} olderLabel="Siguientes pendientes" />}
          </>
        )}
      </DecisionNotices>
      <OnlinePayments payments={onlinePayments} on={paymentsOn} />
      <AutomaticTopUps settings={automatic} on={paymentsOn} />
      <DecidedTopUps history={history.rows} next={history.next} paged={historyAfter !== undefined} />
    </>
  );
}

/** Integrations whose owner turned automatic top-up on, active or paused (and why). */
function AutomaticTopUps({ settings, on }: { settings: Awaited<ReturnType<typeof topUpsView>>['automatic']; on: boolean }) {
  if (!on && settings.length === 0) return null;
  return (
    <section className="card" aria-labelledby="recargas-automaticas">
      <h2 id="recargas-automaticas">Recargas automáticas</h2>
      <p className="muted">Integraciones cuyo propietario activó la recarga automática con una tarjeta guardada; sus cargos aparecen arriba como pagos en línea (recarga-auto-…).</p>
      {settings.length === 0 ? (
        <EmptyState title="Ninguna integración tiene la recarga automática activada." />
      ) : (
        <div className="table-wrap" role="region" aria-labelledby="recargas-automaticas" tabIndex={0}>
          <table className="data stacked" data-testid="console-auto-top-ups">
            <thead>
              <tr>
                <th>Integración</th>
                <th>Estado</th>
                <th className="num">Saldo</th>
                <th className="num">Umbral</th>
                <th className="num">Monto</th>
                <th className="num">Máximo por día</th>
              </tr>
            </thead>
            <tbody>
              {settings.map((setting) => (
                <tr key={setting.integrationId} data-testid="console-auto-top-up-row">
                  <td data-label="Integración">
                    <a href={`/admin/integraciones/${setting.integrationId}`}>{setting.integrationName}</a>
                  </td>
                  <td data-label="Estado">
                    <span className={`badge ${setting.state === 'active' ? 'ok' : 'danger'}`}>{AUTO_TOP_UP_STATE_LABELS[setting.state]}</span>
                    {setting.state === 'paused' && setting.pausedReason && <span className="small"> {setting.pausedReason}{setting.pausedAt ? `, desde el ${formatDateTime(setting.pausedAt)}` : ''}</span>}
                  </td>
                  <td className="num" data-label="Saldo">
                    {formatQuetzales(setting.balanceCentavos)}
                  </td>
                  <td className="num" data-label="Umbral">
                    {formatQuetzales(setting.thresholdCentavos)}
                  </td>
                  <td className="num" data-label="Monto">
                    {formatQuetzales(setting.amountCentavos)}
                  </td>
                  <td className="num" data-label="Máximo por día">
                    {setting.dailyMax}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * Online payments (card or transfer through the provider), every state, the latest first; each links
 * to its events. Not shown while payments are off and none were ever made; made before they were
 * turned off, listed under a notice that says so.
 */
function OnlinePayments({ payments, on }: { payments: (OnlinePayment & { integrationName: string; refunds: RefundSummary })[]; on: boolean }) {
  if (!on && payments.length === 0) return null;
  return (
    <section className="card" aria-labelledby="pagos-en-linea">
      <h2 id="pagos-en-linea">Pagos en línea</h2>
      {on ? (
        <p className="muted">Se acreditan solos cuando el proveedor confirma el pago; aquí se ven todos sus estados. Los 50 más recientes.</p>
      ) : (
        <p className="notice warn" role="note" data-testid="online-payments-off">
          {ONLINE_PAYMENTS_OFF_NOTICE}
        </p>
      )}
      {payments.length === 0 ? <EmptyState title="Todavía no hay pagos en línea." /> : <OnlinePaymentsTable payments={payments} audience="console" />}
    </section>
  );
}

/** The history: decided requests, the latest decision first, a page at a time (`historial` in the address). */
function DecidedTopUps({ history, next, paged }: { history: TopUpRequestView[]; next: string | undefined; paged: boolean }) {
  const userNames = new Map<number, string>();
  return (
    <section className="card" aria-labelledby="historial-recargas">
      <h2 id="historial-recargas">Historial</h2>
      <p className="small muted">Solicitudes acreditadas, rechazadas o canceladas por la integración, con quién decidió y cuándo (hora de Guatemala); las más recientes primero.</p>
      {history.length === 0 ? (
        <EmptyState title="Todavía no se ha resuelto ninguna solicitud de recarga." />
      ) : (
        <div className="table-wrap" role="region" aria-labelledby="historial-recargas" tabIndex={0}>
          <table className="data stacked" data-testid="top-up-history">
            <thead>
              <tr>
                <th>Resuelta</th>
                <th>Integración</th>
                <th>Banco y referencia</th>
                <th className="num">Monto</th>
                <th>Estado</th>
                <th>Por</th>
                <th>Motivo o nota</th>
              </tr>
            </thead>
            <tbody>
              {history.map((request) => {
                const credited = creditedCentavos(request);
                return (
                  <tr key={request.id} data-testid="top-up-history-row">
                    <td className="nowrap" data-label="Resuelta">
                      {request.decidedAt ? formatDateTime(request.decidedAt) : ''}
                    </td>
                    <td data-label="Integración">{request.integrationName}</td>
                    <td data-label="Banco y referencia">
                      {bankName(request.bank)} · {request.reference}
                    </td>
                    <td className="num" data-label="Monto">
                      {request.state === 'approved' && credited !== request.amountCentavos ? (
                        <>
                          {formatQuetzales(credited)} acreditados
                          <br />
                          <span className="small muted">Reportado: {formatQuetzales(request.amountCentavos)}</span>
                        </>
                      ) : (
                        formatQuetzales(request.amountCentavos)
                      )}
                    </td>
                    <td data-label="Estado">
                      <TopUpStateBadge state={request.state} />
                    </td>
                    <td data-label="Por">
                      {request.decidedBy ? describeAuditActor(request.decidedBy, userNames) : ''}
                    </td>
                    <td data-label="Motivo o nota">{request.state === 'rejected' ? request.reason : request.state === 'approved' ? (request.approvalNote ?? '') : ''}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <Pagination
          newer={paged ? '/admin/recargas#historial-recargas' : undefined}
          older={`/admin/recargas?${new URLSearchParams({ historial: next })}#historial-recargas`}
          olderLabel="Decisiones anteriores"
        />
      )}
    </section>
  );
}
