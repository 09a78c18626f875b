import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { hasRole, requirePageUser } from '@/lib/auth/session';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { formatQuetzales } from '@/lib/money';
import { bankName } from '@/lib/top-ups/banks';
import { TOP_UP_STATE_LABELS } from '@/lib/top-ups/labels';
import { pendingTopUpCount, pendingTopUpPage, referenceDuplicates, TOP_UP_PAGE_SIZE, type TopUpRequestView } from '@/lib/top-ups/requests';
import { isImageSlip } from '@/lib/top-ups/slips';
import { ApproveTopUpForm, DecisionNotices, RejectTopUpForm } from './decision-forms';

export const metadata: Metadata = { title: 'Recargas pendientes' };

// Recargas pendientes: deposits integrators reported, oldest first, each with its slip (a photo
// shown, a PDF to download). An administrator approves (the money enters the ledger) or rejects
// with a reason; support reads.
export default async function PendingTopUpsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const after = (await searchParams).despues;
  const [page, pending, duplicates] = await Promise.all([pendingTopUpPage(typeof after === 'string' ? after : undefined), pendingTopUpCount(), referenceDuplicates()]);
  const requests = page.rows;
  // Requests reported before references were compared by letters and digits may be one deposit:
  // each card names the others, so the deposit is credited once.
  const sharing = new Map<number, TopUpRequestView[]>();
  for (const group of duplicates) for (const request of group.requests) sharing.set(request.id, group.requests.filter((other) => other.id !== request.id));
  const canDecide = hasRole(user, 'admin');
  return (
    <>
      <PageHeader
        title="Recargas pendientes"
        description="Depósitos y transferencias que las integraciones reportaron desde su portal. El saldo cambia solo al aprobarlos: compara el banco, la referencia, la fecha y el monto con el estado de cuenta bancario."
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
                        .join(' y ')}: se reportaron antes de que las referencias se compararan por sus letras y números. Si es un solo depósito, se acredita una vez: rechaza las demás.`}
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
                        title={`¿Acreditar ${amount} a «${request.integrationName}»?`}
                        message={`Confirma que el depósito de ${bankName(request.bank)} con referencia ${request.reference} llegó a la cuenta del servicio. El saldo sube al aprobar y la integración recibe un aviso.`}
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
    </>
  );
}
