import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, portalUsers, type PortalRole } from '@/db/schema';
import type { IntegratorActor } from '@/lib/core/audit/audit';

/** A portal user who may sign in (not removed), with the integration they belong to. */
export interface PortalAccount {
  id: number;
  email: string;
  name: string;
  role: PortalRole;
  passwordHash: string;
  integrationId: number;
  integrationName: string;
}

const accountColumns = {
  id: portalUsers.id,
  email: portalUsers.email,
  name: portalUsers.name,
  role: portalUsers.role,
  passwordHash: portalUsers.passwordHash,
  integrationId: portalUsers.integrationId,
  integrationName: integrations.nombre,
};

/** The member (not removed) with this e-mail, in any integration: an address is one account. */
export async function findPortalAccountByEmail(email: string): Promise<PortalAccount | undefined> {
  const [row] = await (await db())
    .select(accountColumns)
    .from(portalUsers)
    .innerJoin(integrations, eq(integrations.id, portalUsers.integrationId))
    .where(and(sql`lower(${portalUsers.email}) = lower(${email.trim()})`, isNull(portalUsers.removedAt)));
  return row;
}

/** The NITs and CUIs the service holds for an integration (its billing profile's): a password of its people must not carry them. */
export async function integrationIdentifiers(integrationId: number): Promise<string[]> {
  const [row] = await (await db()).select({ nit: integrations.nit, receptorId: integrations.receptorId }).from(integrations).where(eq(integrations.id, integrationId));
  return row ? billingIdentifiers(row) : [];
}

/** The NIT and the receptor's NIT or CUI of an integration's row (consumidor final is none). */
export function billingIdentifiers(integration: { nit: string | null; receptorId: string | null }): string[] {
  return [integration.nit, integration.receptorId].filter((identifier): identifier is string => Boolean(identifier) && identifier !== 'CF');
}

/** How the audit names a portal user: "Integrador: correo (integración)". */
export function integratorActor(account: Pick<PortalAccount, 'id' | 'email' | 'integrationId' | 'integrationName'>): IntegratorActor {
  return { kind: 'integrator', id: account.id, email: account.email, integrationId: account.integrationId, integrationName: account.integrationName };
}

/** The e-mails of these portal users (removed ones too), for the audit page's rows. */
export async function portalUserEmails(ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await (await db()).select({ id: portalUsers.id, email: portalUsers.email }).from(portalUsers).where(inArray(portalUsers.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.email]));
}
