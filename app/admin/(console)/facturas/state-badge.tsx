import { INVOICE_STANDING_LABELS, INVOICE_STANDING_TONES, type InvoiceStanding } from '@/lib/presentation/invoice-labels';

export function InvoiceStateBadge({ state }: { state: InvoiceStanding }) {
  return (
    <span className={`badge ${INVOICE_STANDING_TONES[state]}`} data-testid="invoice-state">
      {INVOICE_STANDING_LABELS[state]}
    </span>
  );
}
