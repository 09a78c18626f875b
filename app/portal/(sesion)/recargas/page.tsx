import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { DepositAccounts } from '@/components/top-ups/deposit-accounts';
import { TopUpStateBadge } from '@/components/top-ups/state-badge';
import { env } from '@/lib/platform/settings/env';
import { formatDateTime, guatemalanToday } from '@/lib/platform/time/guatemala-time';
import { formatQuetzales } from '@/lib/platform/money';
import { TOP_UP_REPORTERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { bankName } from '@/lib/platform/guatemala/banks';
import { portalTopUpsPage } from '@/lib/surfaces/portal/top-ups';
import { CancelTopUpForm } from './cancel-form';
import { ReportTopUpForm } from './report-form';
import { OnlineTopUpForm } from './online-form';
import { OnlinePaymentsTable } from '@/components/online-payments/online-payments-table';
import { CF_LIMIT_CENTAVOS } from '@/lib/providers/fel/document';

export const metadata: Metadata = { title: 'Recargas' };

// Recargas: the session's integration reports its deposits and transfers and follows each one's
// state (with what was credited, when an administrator credited another amount, and why); the
// balance moves only when an administrator approves one. A pending report can be cancelled by the
// person who reported it or by an owner: a billing person withdraws their own mistakes, an owner
// anyone's (the reporter may have left).
export default async function PortalTopUpsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(TOP_UP_REPORTERS);
  const after = (await searchParams).despues;
  const page = await portalTopUpsPage(user, typeof after === 'string' ? after : undefined);
  const { balanceCentavos, login, onlinePayments, receptorLine, paysOnline } = page;
  const requests = page.rows;
  return (
    <>
      <PageHeader
        title="Recargas"
        description={
          <>
            Deposite o transfiera a la cuenta del servicio y repórtelo aquí con el número de referencia: la administración lo revisa y, al
            aprobarlo, lo suma a su saldo. Mientras esté pendiente, quien lo reportó (o un propietario) puede cancelarlo. Saldo actual: <strong data-testid="portal-current-balance">{formatQuetzales(balanceCentavos)}</strong>.
          </>
        }
      />
      {page.invoicingOn && (
        <section className="card" aria-labelledby="factura-a-nombre-de">
          <h2 id="factura-a-nombre-de">Sus facturas</h2>
          <p data-testid="top-up-receptor">
            {page.receptorSet
              ? `Cada recarga se factura a nombre de ${receptorLine}.`
              : `Su integración no tiene NIT ni CUI registrado: las recargas de hasta ${formatQuetzales(CF_LIMIT_CENTAVOS - 1)} se facturan a consumidor final; para recargar ${formatQuetzales(CF_LIMIT_CENTAVOS)} o más, regístrelo primero (sin él, un depósito se acredita pero su factura queda pendiente, y un pago en línea no se acepta).`}{' '}
            <Link href="/portal/facturas/datos">{page.receptorSet ? 'Cambiar los datos de facturación' : 'Registrar el NIT o CUI'}</Link>
          </p>
        </section>
      )}
      {paysOnline && (
        <section className="card" aria-labelledby="pagar-en-linea" data-testid="online-top-up">
          <h2 id="pagar-en-linea">Pagar en línea</h2>
          <p>
            Pague con tarjeta o transferencia bancaria en la página del proveedor de pagos: el saldo se acredita en cuanto el proveedor confirma el pago, sin
            reportar nada. Antes de pagar verá la comisión y el total.
          </p>
          <OnlineTopUpForm limits={`Entre ${formatQuetzales(page.onlineLimits.minCentavos)} y ${formatQuetzales(page.onlineLimits.maxCentavos)}.`} />
        </section>
      )}
      {paysOnline && user.role === 'propietario' && (
        <section className="card" aria-labelledby="recarga-automatica">
          <h2 id="recarga-automatica">Recarga automática</h2>
          <p>
            Con una tarjeta ya usada en un pago en línea, el saldo se recarga solo cuando baja de un umbral que usted elige.{' '}
            <Link href="/portal/recargas/automatica" data-testid="auto-top-up-link">
              Configurar la recarga automática
            </Link>
          </p>
        </section>
      )}
      {(paysOnline || onlinePayments.length > 0) && (
        <section className="card" aria-labelledby="pagos-en-linea">
          <h2 id="pagos-en-linea">Pagos en línea</h2>
          {onlinePayments.length === 0 ? <EmptyState title="Su integración todavía no ha pagado en línea." /> : <OnlinePaymentsTable payments={onlinePayments} audience="portal" />}
        </section>
      )}
      <section className="card" aria-labelledby="depositar">
        <h2 id="depositar">Dónde depositar</h2>
        <DepositAccounts accounts={page.bankAccounts} login={login} supportEmail={env().SUPPORT_CONTACT_EMAIL ?? null} />
      </section>
      <section className="card" aria-labelledby="reportar">
        <h2 id="reportar">Reportar un depósito o transferencia</h2>
        <ReportTopUpForm today={guatemalanToday()} earliest={page.earliestDepositDate} maxAgeDays={page.depositMaxAgeDays} />
      </section>
      <section className="card" aria-labelledby="reportadas">
        <h2 id="reportadas">Recargas reportadas</h2>
        {requests.length === 0 ? (
          <EmptyState title="Su integración todavía no ha reportado depósitos." />
        ) : (
          <div className="table-wrap" role="region" aria-label="Recargas reportadas" tabIndex={0}>
            <table className="data stacked" data-testid="portal-top-ups">
              <thead>
                <tr>
                  <th>Reportada (hora de Guatemala)</th>
                  <th>Banco y referencia</th>
                  <th>Fecha del depósito</th>
                  <th className="num">Monto</th>
                  <th>Estado</th>
                  <th>Boleta</th>
                </tr>
              </thead>
              <tbody>
                {requests.map((request) => (
                  <tr key={request.id} data-testid="portal-top-up-row">
                    <td className="nowrap" data-label="Reportada">
                      {formatDateTime(request.createdAt)}
                    </td>
                    <td data-label="Banco y referencia">
                      {bankName(request.bank)} · {request.reference}
                    </td>
                    <td className="nowrap" data-label="Fecha del depósito">
                      {request.depositDate.split('-').reverse().join('/')}
                    </td>
                    <td className="num" data-label="Monto">
                      {request.state === 'approved' && request.creditedAmountCentavos !== request.amountCentavos ? (
                        <span data-testid="portal-top-up-amounts">
                          {formatQuetzales(request.creditedAmountCentavos)} acreditados
                          <br />
                          <span className="small muted">Reportado: {formatQuetzales(request.amountCentavos)}</span>
                        </span>
                      ) : (
                        formatQuetzales(request.amountCentavos)
                      )}
                    </td>
                    <td data-label="Estado">
                      <TopUpStateBadge state={request.state} />
                      {request.state === 'rejected' && request.reason && <span className="small"> Motivo: {request.reason}</span>}
                      {request.state === 'approved' && request.approvalNote && (
                        <span className="small" data-testid="portal-top-up-note">
                          {' '}
                          Nota de la administración: {request.approvalNote}
                        </span>
                      )}
                      {request.state === 'cancelled' && request.decidedAt && <span className="small"> El {formatDateTime(request.decidedAt)}.</span>}
                      {request.state === 'pending' && request.mayCancel && (
                        <div data-testid={`cancel-top-up-${request.id}`}>
                          <CancelTopUpForm
                            requestId={request.id}
                            description={`El depósito de ${formatQuetzales(request.amountCentavos)} en ${bankName(request.bank)}, referencia ${request.reference}, del ${request.depositDate.split('-').reverse().join('/')}.`}
                          />
                        </div>
                      )}
                    </td>
                    <td data-label="Boleta">
                      {request.slip ? (
                        <a href={`/portal/recargas/${request.id}/boleta`} download>
                          Descargar boleta
                        </a>
                      ) : (
                        <span className="muted">Sin boleta</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {page.next && <Pagination newer={after ? '/portal/recargas' : undefined} older={`/portal/recargas?${new URLSearchParams({ despues: page.next })}`} olderLabel="Recargas anteriores" />}
      </section>
    </>
  );
}
