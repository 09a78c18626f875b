'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import type { ActionResult } from '@/lib/flows/auth/action';
import { BILLING_ADDRESS_MAX, EMAIL_MAX } from '@/lib/flows/integration-management/details-schemas';

/**
 * The rest of an integration's billing profile, beside its receptor: the fiscal address its
 * statements print and the address its invoices are e-mailed to. The console and the portal alike.
 */
export function BillingContactForm({ action, hidden, address, invoiceEmail }: { action: (input: unknown) => Promise<ActionResult<undefined>>; hidden?: Record<string, string | number>; address: string | null; invoiceEmail: string | null }) {
  return (
    <ActionForm action={action} hidden={hidden} submitLabel="Guardar dirección y correo" pendingLabel="Guardando…">
      <div className="grid grid-2" style={{ alignItems: 'start' }}>
        <Field name="direccion" label="Dirección fiscal" hint="Como consta en el RTU; se imprime en los estados de cuenta." maxLength={BILLING_ADDRESS_MAX} autoComplete="street-address" defaultValue={address ?? ''} data-testid="billing-address" />
        <Field
          name="correo"
          label="Correo para facturas"
          hint="Recibe cada factura certificada (XML y PDF), además del contacto de facturación. Vacío: solo el contacto."
          type="email"
          inputMode="email"
          maxLength={EMAIL_MAX}
          autoComplete="email"
          defaultValue={invoiceEmail ?? ''}
          data-testid="billing-invoice-email"
        />
      </div>
    </ActionForm>
  );
}
