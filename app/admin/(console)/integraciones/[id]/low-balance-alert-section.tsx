import Link from 'next/link';
import { ActionForm, Field } from '@/components/console/action-form';
import { formatQuetzales } from '@/lib/platform/money';
import { setLowBalanceAlertAction } from '../actions';

/** When administrators are told the balance runs low, and whether anything can tell them. */
export function LowBalanceAlertSection({
  integrationId,
  thresholdCentavos,
  defaultCentavos,
  alertsConfigured,
  isAdmin,
}: {
  integrationId: number;
  thresholdCentavos: number | null;
  defaultCentavos: number;
  /** A webhook or an SMTP server is set: without either, no alert reaches anyone. */
  alertsConfigured: boolean;
  isAdmin: boolean;
}) {
  const effective = thresholdCentavos ?? defaultCentavos;
  return (
    <section className="card" aria-labelledby="alert-title">
      <h2 id="alert-title">Alerta de saldo bajo</h2>
      {alertsConfigured ? (
        <p data-testid="low-balance-alert">
          {effective === 0
            ? 'Sin alerta de saldo bajo: se avisa a los administradores solo cuando el saldo se agota.'
            : `Se avisa a los administradores cuando el saldo baja de ${formatQuetzales(effective)}`}
          {effective !== 0 && (thresholdCentavos === null ? ' (umbral predeterminado).' : ' (umbral propio de esta integración).')}{' '}
          <Link href="/admin/alertas">Ver alertas enviadas</Link>
        </p>
      ) : (
        // Promising an alert that no channel can deliver would be worse than saying nothing.
        <p className="notice warn" data-testid="low-balance-alert">
          No se envía ninguna alerta: este servicio no tiene un canal de alertas configurado (ALERT_WEBHOOK_URL o ALERT_SMTP_HOST). El umbral
          {effective === 0 ? ' (solo saldo agotado)' : ` de ${formatQuetzales(effective)}`} marca igualmente la integración en el Panel.
        </p>
      )}
      {isAdmin && (
        <ActionForm action={setLowBalanceAlertAction} hidden={{ integrationId }} submitLabel="Guardar umbral" className="stack narrow">
          <Field
            name="umbral"
            label="Umbral de alerta (Q)"
            hint={`Vacío: el predeterminado (${formatQuetzales(defaultCentavos)}). 0: solo avisar cuando el saldo se agote.`}
            inputMode="decimal"
            defaultValue={thresholdCentavos === null ? '' : formatQuetzales(thresholdCentavos).replace('Q ', '')}
          />
        </ActionForm>
      )}
    </section>
  );
}
