import type { InvoiceState } from '@/db/schema';
import { INVOICE_STATE_LABELS, INVOICE_STATE_TONES } from '@/lib/presentation/invoice-labels';

export function InvoiceStateBadge({ state }: { state: InvoiceState }) {
  return (
    <span className={`badge ${INVOICE_STATE_TONES[state]}`} data-testid="invoice-state">
      {INVOICE_STATE_LABELS[state]}
    </span>
  );
}
