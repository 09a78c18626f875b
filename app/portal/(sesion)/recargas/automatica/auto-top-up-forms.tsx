'use client';

import { useRouter } from 'next/navigation';
import { ActionForm, Field } from '@/components/console/action-form';
import { disableAutoTopUpAction, enableAutoTopUpAction } from './actions';

export interface AutoTopUpFormValues {
  pago: string;
  umbral: string;
  monto: string;
  maximo: string;
}

/** «Activar» (or «Guardar y reactivar»): the card, the threshold, the amount and the daily maximum. */
export function EnableAutoTopUpForm({ cards, values, submitLabel, amountHint }: { cards: { value: string; label: string }[]; values: AutoTopUpFormValues; submitLabel: string; amountHint: string }) {
  const router = useRouter();
  return (
    <ActionForm action={enableAutoTopUpAction} submitLabel={submitLabel} pendingLabel="Guardando…" onSuccess={() => router.refresh()}>
      <Field name="pago" label="Tarjeta" options={cards} defaultValue={values.pago} hint="La tarjeta con que pagó en línea; el proveedor de pagos la guardó." data-testid="auto-top-up-card" />
      <Field name="umbral" label="Recargar cuando el saldo baje de (Q)" inputMode="decimal" defaultValue={values.umbral} placeholder="200.00" autoComplete="off" required data-testid="auto-top-up-threshold" />
      <Field name="monto" label="Monto a acreditar en cada recarga (Q)" inputMode="decimal" defaultValue={values.monto} placeholder="500.00" hint={amountHint} autoComplete="off" required data-testid="auto-top-up-amount" />
      <Field name="maximo" label="Máximo de recargas automáticas por día" inputMode="numeric" defaultValue={values.maximo} placeholder="2" autoComplete="off" required data-testid="auto-top-up-daily-max" />
    </ActionForm>
  );
}

export function DisableAutoTopUpForm() {
  const router = useRouter();
  return (
    <ActionForm
      action={disableAutoTopUpAction}
      submitLabel="Desactivar la recarga automática"
      pendingLabel="Desactivando…"
      submitClassName="secondary"
      confirmation={{ kind: 'text', title: '¿Desactivar la recarga automática?', message: 'No se harán más cargos automáticos a la tarjeta. Puede activarla de nuevo cuando quiera.', confirmLabel: 'Desactivar' }}
      onSuccess={() => router.refresh()}
    >
      {null}
    </ActionForm>
  );
}
