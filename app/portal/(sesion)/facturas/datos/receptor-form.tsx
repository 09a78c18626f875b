'use client';

import { ReceptorForm } from '@/components/invoices/receptor-form';
import { lookUpBillingReceptorAction, saveBillingReceptorAction } from './actions';

/** The receptor's two steps for the integration's own people (components/invoices/receptor-form.tsx). */
export function BillingReceptorForm() {
  return <ReceptorForm lookUp={lookUpBillingReceptorAction} save={saveBillingReceptorAction} whoseName="el de su empresa" saveLabel="Guardar como receptor de mis facturas" />;
}
