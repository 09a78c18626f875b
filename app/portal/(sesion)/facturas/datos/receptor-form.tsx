'use client';

import { ReceptorForm } from '@/components/invoices/receptor-form';
import { BillingContactForm } from '@/components/invoices/billing-contact-form';
import { lookUpBillingReceptorAction, saveBillingContactPortalAction, saveBillingReceptorAction } from './actions';

/** The receptor's two steps for the integration's own people (components/invoices/receptor-form.tsx). */
export function BillingReceptorForm() {
  return <ReceptorForm lookUp={lookUpBillingReceptorAction} save={saveBillingReceptorAction} whoseName="el de su empresa" saveLabel="Guardar como receptor de mis facturas" />;
}

/** The profile's address and invoice e-mail (components/invoices/billing-contact-form.tsx). */
export function PortalBillingContactForm({ address, invoiceEmail }: { address: string | null; invoiceEmail: string | null }) {
  return <BillingContactForm action={saveBillingContactPortalAction} address={address} invoiceEmail={invoiceEmail} />;
}
