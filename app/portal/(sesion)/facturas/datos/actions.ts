'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { BILLING_READERS } from '@/lib/surfaces/portal/page-access';
import type { ReceptorResult } from '@/lib/flows/invoicing/receptor';
import { lookUpPortalReceptor, PORTAL_RECEPTOR_KINDS, savePortalBillingContact, savePortalReceptor } from '@/lib/surfaces/portal/billing-details';
import { foundReceptor } from '@/lib/presentation/invoice-labels';
import { portalAction } from '@/lib/surfaces/portal/action';

// "Datos de facturación": the owner or the billing person of an integration sets whom its invoices
// name, in the console's two steps (lib/flows/invoicing/receptor.ts): the look-up shows SAT's name for
// a NIT, the save checks it again. Audited as the person who saved it; the invoices that waited for
// it go to the certifier in the same transaction. A NIT or CUI travels in the body, never the address.

const receptorFields = {
  tipo: z.enum(PORTAL_RECEPTOR_KINDS, { error: 'Elija el tipo de receptor.' }),
  identificador: z.string().max(40, 'El NIT o CUI es demasiado largo.').optional(),
  nombre: z.string().max(300, 'El nombre es demasiado largo.').optional(),
};

function refusal(result: Extract<ReceptorResult<unknown>, { ok: false }>) {
  return { ok: false as const, message: result.error.message, fieldErrors: result.error.field ? { [result.error.field]: result.error.message } : undefined };
}

export const lookUpBillingReceptorAction = portalAction({ roles: BILLING_READERS, schema: z.object(receptorFields) }, async ({ tipo, identificador, nombre }) => {
  const result = await lookUpPortalReceptor({ kind: tipo, identifier: identificador, name: nombre });
  if (!result.ok) return refusal(result);
  return { ok: true, message: '', data: foundReceptor(result.value) };
});

export const saveBillingReceptorAction = portalAction(
  { roles: BILLING_READERS, schema: z.object({ ...receptorFields, nombreMostrado: z.string().max(300).optional() }) },
  async ({ tipo, identificador, nombre, nombreMostrado }, user) => {
    const result = await savePortalReceptor(user, { kind: tipo, identifier: identificador, name: nombre, shownName: nombreMostrado });
    if (!result.ok) return refusal(result);
    if (result.value.changed) {
      revalidatePath('/portal/facturas', 'layout');
      revalidatePath('/portal/recargas');
    }
    return { ok: true, message: result.value.message, data: undefined };
  },
);

// The billing profile's fiscal address and invoice e-mail, by the same people, audited as them.
export const saveBillingContactPortalAction = portalAction(
  { roles: BILLING_READERS, schema: z.object({ direccion: z.string().max(1000).optional(), correo: z.string().max(1000).optional() }) },
  async ({ direccion, correo }, user) => {
    const result = await savePortalBillingContact(user, { direccion: direccion ?? '', correo: correo ?? '' });
    if (!result.ok) return refusal(result);
    if (result.value.changed) revalidatePath('/portal/facturas', 'layout');
    return { ok: true, message: result.value.message, data: undefined };
  },
);
