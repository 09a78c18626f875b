// An integration's invoice receptor and billing contact
// (app/admin/(console)/integraciones/[id]/receptor-actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { consoleAction } from '@/lib/surfaces/console/action';
import { idField } from '@/lib/presentation/form-fields';
import { integrationPaths } from '@/lib/surfaces/console/integration-sections';
import { BILLING_MESSAGES, lookUpReceptor, RECEPTOR_KINDS, RECEPTOR_MESSAGES, setBillingContact, setIntegrationReceptor, type ReceptorResult } from '@/lib/flows/invoicing/receptor';
import { foundReceptor } from '@/lib/presentation/invoice-labels';

// The receptor of an integration's invoices, in two steps (lib/flows/invoicing/receptor.ts): the
// look-up answers with the receptor found (a NIT's name from SAT) for the administrator to read, and
// the save checks it again. Both go in the request's body: a NIT or CUI never reaches an address.

const receptorFields = {
  integrationId: idField,
  tipo: z.enum(RECEPTOR_KINDS, { error: 'Elija el tipo de receptor.' }),
  identificador: z.string().max(40, 'El NIT o CUI es demasiado largo.').optional(),
  nombre: z.string().max(300, 'El nombre es demasiado largo.').optional(),
};

function refusal(result: Extract<ReceptorResult<unknown>, { ok: false }>) {
  return { ok: false as const, message: result.error.message, fieldErrors: result.error.field ? { [result.error.field]: result.error.message } : undefined };
}

export const lookUpReceptorAction = consoleAction(
  { role: 'admin', schema: z.object(receptorFields) },
  async ({ tipo, identificador, nombre }) => {
    const result = await lookUpReceptor({ kind: tipo, identifier: identificador, name: nombre });
    if (!result.ok) return refusal(result);
    return { ok: true, message: '', data: foundReceptor(result.value) };
  },
);

export const saveReceptorAction = consoleAction(
  { role: 'admin', schema: z.object({ ...receptorFields, nombreMostrado: z.string().max(300).optional() }) },
  async ({ integrationId, tipo, identificador, nombre, nombreMostrado }, user) => {
    const result = await setIntegrationReceptor(user.actor, integrationId, { kind: tipo, identifier: identificador, name: nombre, shownName: nombreMostrado });
    if (!result.ok) return refusal(result);
    if (result.value.changed) for (const path of integrationPaths(integrationId)) revalidatePath(path);
    const saved = result.value.changed ? `${RECEPTOR_MESSAGES.saved}${result.value.released > 0 ? ` ${RECEPTOR_MESSAGES.released(result.value.released)}` : ''}` : RECEPTOR_MESSAGES.unchanged;
    return { ok: true, message: saved, data: undefined };
  },
);

// The billing profile's fiscal address and invoice e-mail, audited like the receptor.
export const saveBillingContactAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, direccion: z.string().max(1000).optional(), correo: z.string().max(1000).optional() }) },
  async ({ integrationId, direccion, correo }, user) => {
    const result = await setBillingContact(user.actor, integrationId, { direccion: direccion ?? '', correo: correo ?? '' });
    if (!result.ok) return refusal(result);
    if (result.value.changed) for (const path of integrationPaths(integrationId)) revalidatePath(path);
    return { ok: true, message: result.value.changed ? BILLING_MESSAGES.saved : BILLING_MESSAGES.unchanged, data: undefined };
  },
);
