'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import { GUATEMALAN_BANKS } from '@/lib/platform/guatemala/banks';
import { reportTopUpAction } from './actions';

const BANK_OPTIONS = [{ value: '', label: 'Elija el banco' }, ...GUATEMALAN_BANKS.map((bank) => ({ value: bank.code, label: bank.name }))];

/** `earliest` and `today` (YYYY-MM-DD) bound the deposit's date as the server does; `maxAgeDays` is the window's length. */
export function ReportTopUpForm({ today, earliest, maxAgeDays }: { today: string; earliest: string; maxAgeDays: number }) {
  return (
    <ActionForm action={reportTopUpAction} submitLabel="Reportar depósito" pendingLabel="Enviando…" resetOnSuccess>
      <Field name="banco" label="Banco" options={BANK_OPTIONS} defaultValue="" required data-testid="top-up-bank" />
      <Field
        name="referencia"
        label="Número de referencia"
        hint="El de la boleta de depósito o el comprobante de la transferencia, como aparece: se comparan sus letras y números."
        autoComplete="off"
        required
        maxLength={60}
        data-testid="top-up-reference"
      />
      <Field
        name="fecha"
        label="Fecha del depósito"
        type="date"
        min={earliest}
        max={today}
        hint={`De los últimos ${maxAgeDays} días: desde el ${earliest.split('-').reverse().join('/')}.`}
        required
        data-testid="top-up-date"
      />
      <Field name="monto" label="Monto (Q)" inputMode="decimal" placeholder="1,000.00" autoComplete="off" required data-testid="top-up-amount" />
      <Field
        name="boleta"
        label="Boleta (opcional)"
        type="file"
        accept="image/png,image/jpeg,image/webp,application/pdf"
        hint="Una foto (PNG, JPG o WebP) o un PDF de hasta 5 MB."
        data-testid="top-up-slip"
      />
    </ActionForm>
  );
}
