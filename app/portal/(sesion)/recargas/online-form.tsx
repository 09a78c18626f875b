'use client';

import { useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { formatQuetzales } from '@/lib/platform/money';
import type { OnlineTopUpQuote } from '@/lib/flows/online-top-ups/payments';
import { quoteOnlineTopUpAction, startOnlineTopUpAction } from './actions';

/**
 * "Pagar en línea" in two steps: the amount, then what will be credited, the fee and the total,
 * confirmed before the browser goes to the provider's page. The server quotes again when starting:
 * the amount it credits is its own, not what this page showed.
 */
export function OnlineTopUpForm({ limits }: { limits: string }) {
  const [quote, setQuote] = useState<OnlineTopUpQuote | null>(null);
  if (quote === null) {
    return (
      <ActionForm action={quoteOnlineTopUpAction} submitLabel="Ver el total a pagar" pendingLabel="Calculando…" onSuccess={setQuote}>
        <Field name="monto" label="Monto a acreditar (Q)" inputMode="decimal" placeholder="500.00" hint={limits} autoComplete="off" required data-testid="online-top-up-amount" />
      </ActionForm>
    );
  }
  return (
    <div className="stack" data-testid="online-top-up-confirmation">
      <dl className="details">
        <dt>Se acredita a su saldo</dt>
        <dd>{formatQuetzales(quote.amountCentavos)}</dd>
        <dt>Comisión del pago en línea</dt>
        <dd data-testid="online-top-up-fee">{formatQuetzales(quote.feeCentavos)}</dd>
        <dt>Total a pagar</dt>
        <dd>
          <strong>{formatQuetzales(quote.totalCentavos)}</strong>
        </dd>
      </dl>
      <ActionForm
        action={startOnlineTopUpAction}
        hidden={{ monto: (quote.amountCentavos / 100).toFixed(2) }}
        submitLabel={`Pagar ${formatQuetzales(quote.totalCentavos)}`}
        pendingLabel="Abriendo la página de pago…"
        onSuccess={(data) => window.location.assign(data.checkoutUrl)}
      >
        <p className="small muted">Pagará con tarjeta o transferencia en la página segura del proveedor de pagos y volverá aquí.</p>
      </ActionForm>
      <button type="button" className="secondary" onClick={() => setQuote(null)}>
        Cambiar el monto
      </button>
    </div>
  );
}
