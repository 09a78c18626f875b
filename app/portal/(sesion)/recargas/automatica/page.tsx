import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { AUTO_TOP_UP_OWNERS, portalAutoTopUpPage } from '@/lib/surfaces/portal/auto-top-ups';
import { DisableAutoTopUpForm, EnableAutoTopUpForm } from './auto-top-up-forms';

export const metadata: Metadata = { title: 'Recarga automática' };

const TONE = { active: 'ok', paused: 'danger', off: 'muted' } as const;
const CHARGE_STATE_LABELS = { in_flight: 'En curso', credited: 'Acreditada', failed: 'Fallida' } as const;

// Recarga automática (owners only): the card of an online payment is charged when the balance falls
// under the threshold, at most the daily maximum; the page shows where it stands (a pause says why)
// and lets the owner change, resume or turn it off.
export default async function AutoTopUpPage() {
  const user = await requirePortalPage(AUTO_TOP_UP_OWNERS);
  const { setting, chargesToday, recent, paysOnline, cardOptions, savedCard, values, amountHint, stateLabel, summary, pausedMessage } = await portalAutoTopUpPage(user);
  return (
    <>
      <PageHeader
        title="Recarga automática"
        description={
          <>
            Cuando una consulta deje el saldo por debajo del umbral, se carga a la tarjeta guardada el monto elegido (más la comisión) y se acredita como un pago en
            línea, con su factura. Como máximo las veces por día que elija. Si el cargo y su reintento fallan, queda en pausa y avisamos al propietario y al contacto
            de facturación. <Link href="/portal/recargas">Volver a Recargas</Link>.
          </>
        }
      />
      <section className="card" aria-labelledby="estado" data-testid="auto-top-up-state">
        <h2 id="estado">Estado</h2>
        {setting ? (
          <>
            <p>
              <span className={`badge ${TONE[setting.state]}`} data-testid="auto-top-up-state-badge">
                {stateLabel}
              </span>{' '}
              {summary}
            </p>
            {setting.state !== 'off' && <p data-testid="auto-top-up-card">{`Tarjeta: ${savedCard}.`}</p>}
            {setting.state === 'paused' && setting.pausedReason && (
              <p className="error" role="alert" data-testid="auto-top-up-paused">
                {pausedMessage} {setting.pausedAt && <>Desde el {formatDateTime(setting.pausedAt)}.</>}
              </p>
            )}
            {setting.state !== 'off' && (
              <p className="small muted">
                Recargas automáticas hoy: {chargesToday} de {setting.dailyMax}.
              </p>
            )}
            {setting.state !== 'off' && <DisableAutoTopUpForm />}
          </>
        ) : (
          <EmptyState title="La recarga automática no está activada." />
        )}
      </section>
      <section className="card" aria-labelledby="configurar">
        <h2 id="configurar">{setting?.state === 'paused' ? 'Revisar y reactivar' : setting?.state === 'active' ? 'Cambiar' : 'Activar'}</h2>
        {!paysOnline ? (
          <p>Los pagos en línea no están disponibles: la recarga automática no se puede activar.</p>
        ) : cardOptions.length === 0 ? (
          <p data-testid="auto-top-up-no-card">
            Para guardar una tarjeta, pague una recarga en línea con tarjeta en <Link href="/portal/recargas">Recargas</Link>; después podrá elegirla aquí.
          </p>
        ) : (
          <EnableAutoTopUpForm
            cards={cardOptions}
            values={values}
            amountHint={amountHint}
            submitLabel={setting?.state === 'paused' ? 'Guardar y reactivar' : setting?.state === 'active' ? 'Guardar cambios' : 'Activar la recarga automática'}
          />
        )}
      </section>
      {recent.length > 0 && (
        <section className="card" aria-labelledby="cargos">
          <h2 id="cargos">Últimos cargos automáticos</h2>
          <div className="table-wrap" role="region" aria-label="Últimos cargos automáticos" tabIndex={0}>
            <table className="data stacked" data-testid="auto-top-up-charges">
              <thead>
                <tr>
                  <th>Fecha (hora de Guatemala)</th>
                  <th>Intento</th>
                  <th>Estado</th>
                  <th>Pago</th>
                </tr>
              </thead>
              <tbody>
                {recent.map((charge) => (
                  <tr key={charge.id}>
                    <td className="nowrap" data-label="Fecha">
                      {formatDateTime(charge.createdAt)}
                    </td>
                    <td data-label="Intento">{charge.attempt === 1 ? 'Primero' : 'Reintento'}</td>
                    <td data-label="Estado">{CHARGE_STATE_LABELS[charge.state]}</td>
                    <td data-label="Pago">
                      <Link href={`/portal/recargas/pagos/${charge.onlinePaymentId}`}>{charge.onlinePaymentId}</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  );
}
