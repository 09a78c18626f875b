import { BILLING_MESSAGES, lookUpReceptor, RECEPTOR_KINDS, RECEPTOR_MESSAGES, setBillingContact, setIntegrationReceptor, type ReceptorKind, type ReceptorResult } from '@/lib/flows/invoicing/receptor';
import type { Receptor } from '@/lib/providers/fel/document';
import type { PortalUserSession } from './session';

// "Datos de facturación": the owner or the billing person of an integration sets whom its invoices
// name, in the console's two steps (lib/flows/invoicing/receptor.ts): the look-up shows SAT's name
// for a NIT, the save checks it again; and the fiscal address and invoice e-mail. Audited as the
// person who saved them, always for the session's integration.

/** The kinds of receptor the form offers (NIT, CUI, consumidor final). */
export const PORTAL_RECEPTOR_KINDS = RECEPTOR_KINDS;

/** The receptor's form's fields as the look-up and the save take them. */
export interface PortalReceptorInput {
  kind: ReceptorKind;
  identifier?: string;
  name?: string;
}

/** The first step: the receptor as SAT names it (a NIT's name), nothing saved. */
export function lookUpPortalReceptor(input: PortalReceptorInput): Promise<ReceptorResult<Receptor>> {
  return lookUpReceptor(input);
}

/**
 * The second: saves the receptor (a NIT only while SAT's name is still the one shown), and releases
 * the invoices that waited for it. `message` says what happened; `changed`, whether the pages must
 * read again.
 */
export async function savePortalReceptor(user: PortalUserSession, input: PortalReceptorInput & { shownName?: string }): Promise<ReceptorResult<{ changed: boolean; message: string }>> {
  const result = await setIntegrationReceptor(user.actor, user.integrationId, input);
  if (!result.ok) return result;
  const { changed, released } = result.value;
  const message = changed ? `${RECEPTOR_MESSAGES.saved}${released > 0 ? ` ${RECEPTOR_MESSAGES.released(released)}` : ''}` : RECEPTOR_MESSAGES.unchanged;
  return { ok: true, value: { changed, message } };
}

/** The billing profile's fiscal address and invoice e-mail (empty clears either). */
export async function savePortalBillingContact(user: PortalUserSession, input: { direccion: string; correo: string }): Promise<ReceptorResult<{ changed: boolean; message: string }>> {
  const result = await setBillingContact(user.actor, user.integrationId, input);
  if (!result.ok) return result;
  return { ok: true, value: { changed: result.value.changed, message: result.value.changed ? BILLING_MESSAGES.saved : BILLING_MESSAGES.unchanged } };
}
