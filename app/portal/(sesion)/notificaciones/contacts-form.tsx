'use client';

import { ActionForm, Field } from '@/components/console/action-form';
import { EMAIL_MAX } from '@/lib/surfaces/portal/contact-limits';
import { setPortalContactsAction } from './actions';

/** The addresses notices are e-mailed to; validated by the server as the console's "Datos de la integración". */
export function ContactsForm({ technical, billing }: { technical: string | null; billing: string | null }) {
  return (
    <ActionForm action={setPortalContactsAction} submitLabel="Guardar contactos" pendingLabel="Guardando…">
      <div className="grid grid-2">
        <Field name="technicalContactEmail" label="Correo del contacto técnico" hint="Recibe los avisos técnicos: tokens, direcciones, fuentes." type="email" maxLength={EMAIL_MAX} defaultValue={technical ?? ''} data-testid="contact-technical" />
        <Field name="billingContactEmail" label="Correo del contacto de facturación" hint="Recibe los avisos de saldo y de recargas." type="email" maxLength={EMAIL_MAX} defaultValue={billing ?? ''} data-testid="contact-billing" />
      </div>
    </ActionForm>
  );
}
