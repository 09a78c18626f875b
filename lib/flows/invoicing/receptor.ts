// The receptor an integration's invoices name, set by an administrator in two steps: the look-up
// checks what was typed (a NIT's check character, a CUI) and, for a NIT, asks the certifier for the
// name SAT has, which the administrator reads before saving; the save asks again and keeps that name
// only if it is still the one shown (SAT refuses an invoice whose name differs from its registry).
// NITs, CUIs and names are personal data: they go to the certifier and the audit, never to a log.
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/db/client';
import { integrations, type Integration } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { receptorOfIntegration } from '@/lib/core/invoices/receptor';
import { releaseAwaitingInvoices } from '@/lib/core/invoices/sales';
import { felSettings } from '@/lib/providers/fel/settings';
import { isValidClassicNit, isValidCui, normalizeCui, normalizeNit } from '@/lib/platform/guatemala/identifiers';
import type { FelCertifier } from '@/lib/providers/fel/certifier';
import { checkReceptor, type Receptor } from '@/lib/providers/fel/document';
import { BILLING_ADDRESS_MAX } from '@/lib/flows/integration-management/details-schemas';
import { certifierOf } from './settings';

export const RECEPTOR_KINDS = ['nit', 'cui', 'cf'] as const;
export type ReceptorKind = (typeof RECEPTOR_KINDS)[number];

/** What the form sends: the kind, the NIT or CUI, and a CUI's name (a NIT's comes from SAT). */
export interface ReceptorInput {
  kind: ReceptorKind;
  identifier?: string;
  name?: string;
}

/** Every sentence of the receptor's form, for the code and its tests. */
export const RECEPTOR_MESSAGES = {
  nitInvalid: 'El NIT no es válido: revise el número y su dígito verificador (por ejemplo 576937-K).',
  nitIsCui: 'Ese número es un CUI de 13 dígitos: elija «CUI» como tipo de receptor.',
  cuiInvalid: 'El CUI no es válido: debe tener 13 dígitos, con su dígito verificador, departamento y municipio.',
  nameRequired: 'Escriba el nombre de la persona tal como aparece en su DPI (hasta 255 caracteres).',
  nitNotFound: 'SAT no tiene registrado ese NIT: revíselo con el integrador.',
  lookupUnavailable: 'No se pudo consultar el nombre en SAT a través del certificador. Intente de nuevo en unos minutos.',
  felOff: 'No se puede consultar el nombre de un NIT: la facturación electrónica (FEL) no está configurada en este despliegue.',
  nameChanged: 'El nombre que SAT tiene para ese NIT ya no es el que se mostró. Consulte el NIT de nuevo y confirme el nombre actual.',
  notFound: 'No existe esa integración.',
  saved: 'Receptor de las facturas guardado. Las próximas facturas de la integración lo usarán.',
  released: (count: number) =>
    count === 1 ? 'La factura pendiente por falta de NIT se enviará al certificador con este receptor.' : `Las ${count} facturas pendientes por falta de NIT se enviarán al certificador con este receptor.`,
  unchanged: 'Sin cambios: ese ya era el receptor de las facturas.',
} as const;

/** The address and invoice e-mail's form. */
export const BILLING_MESSAGES = {
  addressInvalid: `La dirección fiscal puede tener hasta ${BILLING_ADDRESS_MAX} caracteres, en una sola línea.`,
  emailInvalid: 'El correo para facturas no es válido: escríbalo como facturas@empresa.com.',
  saved: 'Dirección y correo de facturación guardados.',
  unchanged: 'Sin cambios: esos ya eran la dirección y el correo de facturación.',
} as const;

export type ReceptorProblemCode = 'invalid' | 'not_found' | 'unavailable' | 'name_changed';
/** A refusal names the field it is about when there is one, so the form shows it there. */
export type ReceptorResult<T> = { ok: true; value: T } | { ok: false; error: { code: ReceptorProblemCode; message: string; field?: 'identificador' | 'nombre' } };

function refuse(code: ReceptorProblemCode, message: string, field?: 'identificador' | 'nombre'): ReceptorResult<never> {
  return { ok: false, error: { code, message, field } };
}

/** The certifier of the settings, or null when FEL is not configured. */
function defaultCertifier(): FelCertifier | null {
  const settings = felSettings();
  return settings.FEL_ENABLED ? certifierOf(settings) : null;
}

/**
 * Checks what was typed and finds the receptor it names: a NIT with the name SAT has for it (from
 * the certifier), a CUI with the typed name, or CF. Nothing is saved.
 */
export async function lookUpReceptor(input: ReceptorInput, certifier: FelCertifier | null = defaultCertifier()): Promise<ReceptorResult<Receptor>> {
  switch (input.kind) {
    case 'cf':
      return { ok: true, value: { kind: 'cf' } };
    case 'cui': {
      const cui = normalizeCui(input.identifier ?? '');
      if (!isValidCui(cui)) return refuse('invalid', RECEPTOR_MESSAGES.cuiInvalid, 'identificador');
      const checked = checkReceptor({ kind: 'cui', cui, name: input.name ?? '' }, 0);
      return checked.ok ? { ok: true, value: checked.receptor } : refuse('invalid', RECEPTOR_MESSAGES.nameRequired, 'nombre');
    }
    case 'nit': {
      const nit = normalizeNit(input.identifier ?? '');
      if (!isValidClassicNit(nit)) return refuse('invalid', isValidCui(nit) ? RECEPTOR_MESSAGES.nitIsCui : RECEPTOR_MESSAGES.nitInvalid, 'identificador');
      if (!certifier) return refuse('unavailable', RECEPTOR_MESSAGES.felOff);
      const found = await certifier.lookupNitName(nit);
      if (found.kind === 'not_found') return refuse('not_found', RECEPTOR_MESSAGES.nitNotFound, 'identificador');
      if (found.kind === 'unavailable') return refuse('unavailable', RECEPTOR_MESSAGES.lookupUnavailable);
      const checked = checkReceptor({ kind: 'nit', nit, name: found.name }, 0);
      // A registry name the document cannot carry (empty, too long) is as good as none.
      return checked.ok ? { ok: true, value: checked.receptor } : refuse('not_found', RECEPTOR_MESSAGES.nitNotFound, 'identificador');
    }
  }
}

/** The receptor's columns of the integration row for a receptor. */
function receptorColumns(receptor: Receptor): Pick<Integration, 'receptorKind' | 'receptorId' | 'receptorName'> {
  switch (receptor.kind) {
    case 'cf':
      return { receptorKind: 'cf', receptorId: 'CF', receptorName: null };
    case 'nit':
      return { receptorKind: 'nit', receptorId: receptor.nit, receptorName: receptor.name };
    case 'cui':
      return { receptorKind: 'cui', receptorId: receptor.cui, receptorName: receptor.name };
  }
}

/**
 * Saves the receptor of an integration's invoices: checked and looked up again, and for a NIT only
 * when SAT's name is still `shownName` (what the administrator confirmed). Audited with the receptor
 * before and after; the same receptor again changes nothing.
 */
export async function setIntegrationReceptor(
  actor: Actor,
  integrationId: number,
  input: ReceptorInput & { shownName?: string },
  certifier: FelCertifier | null = defaultCertifier(),
): Promise<ReceptorResult<{ receptor: Receptor; changed: boolean; released: number }>> {
  const found = await lookUpReceptor(input, certifier);
  if (!found.ok) return found;
  const receptor = found.value;
  if (receptor.kind === 'nit' && receptor.name !== input.shownName?.trim()) return refuse('name_changed', RECEPTOR_MESSAGES.nameChanged);
  const columns = receptorColumns(receptor);
  return (await db()).transaction(async (tx) => {
    const [current] = await tx.select().from(integrations).where(eq(integrations.id, integrationId)).for('update');
    if (!current) return refuse('invalid', RECEPTOR_MESSAGES.notFound);
    const before = { receptorKind: current.receptorKind, receptorId: current.receptorId, receptorName: current.receptorName };
    if (before.receptorKind === columns.receptorKind && before.receptorId === columns.receptorId && before.receptorName === columns.receptorName) {
      return { ok: true, value: { receptor, changed: false, released: 0 } };
    }
    // The profile is the integration's razón social and NIT too: one record, never two that disagree.
    const identity = columns.receptorKind === 'cf' ? { nit: null } : { legalName: columns.receptorName, nit: columns.receptorId };
    await tx.update(integrations).set({ ...columns, ...identity, receptorSetAt: sql`now()`, updatedAt: sql`now()` }).where(eq(integrations.id, integrationId));
    // The invoices of top-ups credited while it had none SAT takes go to the certifier now, naming it.
    const released = await releaseAwaitingInvoices(tx, { id: integrationId, ...columns });
    await writeAudit(tx, actor, { action: 'integration.set_receptor', targetType: 'integration', targetId: integrationId, before, after: { ...columns, ...(released > 0 ? { releasedInvoices: released } : {}) } });
    return { ok: true, value: { receptor, changed: true, released } };
  });
}

/** The rest of the billing profile: the fiscal address and the invoices' e-mail (empty clears either). */
export const billingContactSchema = z.object({
  direccion: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    z
      .string({ error: BILLING_MESSAGES.addressInvalid })
      .max(BILLING_ADDRESS_MAX, BILLING_MESSAGES.addressInvalid)
      .regex(/^[^\p{Cc}]*$/u, BILLING_MESSAGES.addressInvalid),
  ),
  correo: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    z.union([z.literal(''), z.string().max(254, BILLING_MESSAGES.emailInvalid).pipe(z.email({ error: BILLING_MESSAGES.emailInvalid }))], { error: BILLING_MESSAGES.emailInvalid }),
  ),
});

/**
 * Saves the address and the invoices' e-mail of an integration's billing profile, audited with
 * both before and after; the same values again change nothing.
 */
export async function setBillingContact(actor: Actor, integrationId: number, input: { direccion: unknown; correo: unknown }): Promise<ReceptorResult<{ changed: boolean }>> {
  const parsed = billingContactSchema.safeParse(input);
  if (!parsed.success) return refuse('invalid', parsed.error.issues[0]!.message);
  const after = { billingAddress: parsed.data.direccion || null, invoiceEmail: parsed.data.correo ? parsed.data.correo.toLowerCase() : null };
  return (await db()).transaction(async (tx) => {
    const [current] = await tx.select().from(integrations).where(eq(integrations.id, integrationId)).for('update');
    if (!current) return refuse('invalid', RECEPTOR_MESSAGES.notFound);
    const before = { billingAddress: current.billingAddress, invoiceEmail: current.invoiceEmail };
    if (before.billingAddress === after.billingAddress && before.invoiceEmail === after.invoiceEmail) return { ok: true, value: { changed: false } };
    await tx.update(integrations).set({ ...after, updatedAt: sql`now()` }).where(eq(integrations.id, integrationId));
    await writeAudit(tx, actor, { action: 'integration.set_billing_contact', targetType: 'integration', targetId: integrationId, before, after });
    return { ok: true, value: { changed: true } };
  });
}

/** The receptor an integration's next invoice names (CF when none is set), and whether one was set. */
export function integrationReceptor(integration: Pick<Integration, 'receptorKind' | 'receptorId' | 'receptorName' | 'receptorSetAt'>): { receptor: Receptor; set: boolean; setAt: Date | null } {
  return { receptor: receptorOfIntegration(integration), set: integration.receptorKind !== null, setAt: integration.receptorSetAt };
}
