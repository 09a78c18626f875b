import { eq, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, type Integration } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { findIntegration, type IntegrationView } from '@/lib/flows/integration-management/service';
import { DETAIL_FIELDS, DETAIL_SCHEMAS, type DetailField, type IntegrationDetails, type ValidDetails } from './details-schemas';

export type { IntegrationDetails, ValidDetails };


/** Details as typed (a form, the CLI): a missing key is left as it is, an empty value clears it. */
export type IntegrationDetailsInput = Partial<Record<DetailField, string | null | undefined>>;


/** Every wrong field with its message; `message` joins them (for the CLI). */
export interface InvalidDetails {
  code: 'invalid';
  message: string;
  fieldErrors: Partial<Record<DetailField, string>>;
}

export type DetailsProblem = InvalidDetails | { code: 'not_found'; message: string };

export type DetailsResult<T> = { ok: true; value: T } | { ok: false; error: DetailsProblem };

/** Validates and normalizes the given details; every wrong field gets its own message. */
export function parseIntegrationDetails(input: IntegrationDetailsInput): { ok: true; value: ValidDetails } | { ok: false; error: InvalidDetails } {
  const details: Partial<IntegrationDetails> = {};
  const fieldErrors: Partial<Record<DetailField, string>> = {};
  for (const field of DETAIL_FIELDS) {
    if (input[field] === undefined) continue;
    const parsed = DETAIL_SCHEMAS[field].safeParse(input[field]);
    if (parsed.success) details[field] = parsed.data;
    else fieldErrors[field] = parsed.error.issues[0]!.message;
  }
  if (Object.keys(fieldErrors).length > 0) {
    const messages = DETAIL_FIELDS.flatMap((field) => (fieldErrors[field] ? [fieldErrors[field]] : []));
    return { ok: false, error: { code: 'invalid', message: messages.join(' '), fieldErrors } };
  }
  return { ok: true, value: details as ValidDetails };
}

export function detailsOf(integration: Integration): IntegrationDetails {
  return Object.fromEntries(DETAIL_FIELDS.map((field) => [field, integration[field]])) as IntegrationDetails;
}

/** The details as the audit keeps them (lib/presentation/audit-labels.ts names each field). */
export function detailsAuditSnapshot(details: Partial<IntegrationDetails>): Partial<IntegrationDetails> {
  return Object.fromEntries(DETAIL_FIELDS.filter((field) => field in details).map((field) => [field, details[field]]));
}

/**
 * Changes an integration's details: validated first (nothing is saved if a field is wrong), then
 * the row is locked, changed and audited with every detail before and after, in one transaction.
 * Details equal to the stored ones change nothing and write no audit row (`changed: false`).
 */
export async function setIntegrationDetails(
  actor: Actor,
  idOrName: string | number,
  input: IntegrationDetailsInput,
): Promise<DetailsResult<{ integration: IntegrationView; changed: boolean }>> {
  const parsed = parseIntegrationDetails(input);
  if (!parsed.ok) return parsed;
  const found = await findIntegration(idOrName);
  if (!found) return { ok: false, error: { code: 'not_found', message: `No existe la integración «${idOrName}».` } };
  const database = await db();
  return database.transaction(async (tx) => {
    const [current] = await tx.select().from(integrations).where(eq(integrations.id, found.id)).for('update');
    const before = detailsOf(current!);
    const after = { ...before, ...parsed.value };
    if (DETAIL_FIELDS.every((field) => before[field] === after[field])) return { ok: true, value: { integration: current!, changed: false } };
    const [row] = await tx
      .update(integrations)
      .set({ ...detailsAuditSnapshot(parsed.value), updatedAt: sql`now()` })
      .where(eq(integrations.id, found.id))
      .returning();
    await writeAudit(tx, actor, {
      action: 'integration.set_details',
      targetType: 'integration',
      targetId: found.id,
      before,
      after: detailsOf(row!),
    });
    return { ok: true, value: { integration: row!, changed: true } };
  });
}

/** One person to write to about an integration; a field not registered is null. */
export interface IntegrationContact {
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** The integration's contacts: the technical one (credentials, errors, sources) and the billing one (balance, statements). */
export interface IntegrationContacts {
  technical: IntegrationContact | null;
  billing: IntegrationContact | null;
}

/** An integration's contacts, each null when none of its fields is registered. */
export function contactsOf(integration: Integration): IntegrationContacts {
  const contact = (name: string | null, email: string | null, phone: string | null): IntegrationContact | null =>
    name === null && email === null && phone === null ? null : { name, email, phone };
  return {
    technical: contact(integration.technicalContactName, integration.technicalContactEmail, integration.technicalContactPhone),
    billing: contact(integration.billingContactName, integration.billingContactEmail, integration.billingContactPhone),
  };
}

/** The contacts of an integration by id or name (what a notification to the integrator is addressed with); undefined: no such integration. */
export async function integrationContacts(idOrName: string | number): Promise<IntegrationContacts | undefined> {
  const integration = await findIntegration(idOrName);
  return integration && contactsOf(integration);
}
