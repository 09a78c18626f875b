import { ActionForm, Field } from '@/components/console/action-form';
import type { IntegrationView } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import { adjustBalanceAction, setConstanciaTariffAction, setTariffAction, topUpAction } from '../actions';

type Money = Pick<IntegrationView, 'id' | 'nombre' | 'tariffCentavos' | 'constanciaTariffCentavos' | 'balanceCentavos'>;

/** The tariff, top-ups and adjustments (administrators): each asked in a dialog with the amounts before it is sent. */
export function MoneySection({ integration }: { integration: Money }) {
  const hidden = { integrationId: integration.id };
  return (
    // Three cards side by side at 1366 px, not one column of three forms: the section stays short.
    <div className="grid grid-3">
      <section className="card" aria-labelledby="tariff-title">
        <h2 id="tariff-title">Tarifa</h2>
        <ActionForm
          action={setTariffAction}
          hidden={hidden}
          submitLabel="Guardar tarifa"
          className="stack"
          confirmation={{ kind: 'tariff', nombre: integration.nombre, tariffCentavos: integration.tariffCentavos }}
        >
          <Field name="tarifa" label="Tarifa por consulta (Q)" hint="Se aplica desde la siguiente consulta." inputMode="decimal" defaultValue={formatQuetzales(integration.tariffCentavos).replace('Q ', '')} />
        </ActionForm>
        <ActionForm action={setConstanciaTariffAction} hidden={hidden} submitLabel="Guardar la tarifa por constancia" className="stack">
          <Field
            name="tarifa"
            label="Tarifa por constancia (Q)"
            hint="Se cobra con cada consulta que trae su constancia, aparte de la tarifa de la consulta."
            inputMode="decimal"
            data-testid="constancia-tariff"
            defaultValue={formatQuetzales(integration.constanciaTariffCentavos).replace('Q ', '')}
          />
        </ActionForm>
      </section>
      <section className="card" aria-labelledby="top-up-title">
        <h2 id="top-up-title">Recargar saldo</h2>
        <ActionForm
          action={topUpAction}
          hidden={hidden}
          submitLabel="Recargar"
          resetOnSuccess
          confirmation={{ kind: 'top_up', nombre: integration.nombre, balanceCentavos: integration.balanceCentavos }}
        >
          <Field name="monto" label="Monto (Q)" hint="Por ejemplo 250.00" inputMode="decimal" data-testid="topup-amount" />
          <Field name="nota" label="Nota (obligatoria)" hint="Por ejemplo: Depósito 12345 del 21/11." maxLength={500} data-testid="topup-note" />
        </ActionForm>
      </section>
      <section className="card" aria-labelledby="adjust-title">
        <h2 id="adjust-title">Ajustar saldo</h2>
        <ActionForm
          action={adjustBalanceAction}
          hidden={hidden}
          submitLabel="Registrar ajuste"
          resetOnSuccess
          confirmation={{ kind: 'adjustment', nombre: integration.nombre, balanceCentavos: integration.balanceCentavos }}
        >
          <Field name="monto" label="Monto del ajuste (Q)" hint="Con signo: +10.00 suma, -5.00 resta. El saldo nunca queda por debajo de cero." inputMode="decimal" />
          <Field name="nota" label="Nota (obligatoria)" hint="Explique el motivo: queda en el historial y en la auditoría." maxLength={500} />
        </ActionForm>
      </section>
    </div>
  );
}
