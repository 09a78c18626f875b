// The people HTTP tests act as: console users and portal members, and their sessions. Each
// session comes from an address of its own (the apps under test trust one proxy hop), so that the
// per-address sign-in limit never decides a test; portal people come from 203.0.113.x and console
// people from 198.51.100.x unless the test names the address.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { db } from '@/db/client';
import { portalUsers } from '@/db/schema';
import type { Reporter } from '@/lib/flows/top-ups/requests';
import { acceptInvitation, invitePortalUser } from '@/lib/flows/portal-identity/invitations';
import type { PortalUserSession } from '@/lib/surfaces/portal/session';
import { createConsoleUser } from '@/lib/flows/auth/users';
import { TEST_ACTOR, type TestIntegration } from '../conformance/harness';
import { PortalClient } from './portal-client';

/** Every portal member's password in these tests. */
export const PORTAL_PASSWORD = 'cafetal de altura junto al lago';

export interface ConsoleAccount {
  id: number;
  email: string;
  password: string;
}

/** A console user with the password the service generated; `name` is the address's local part unless given. */
export async function newConsoleUser(email: string, role: 'admin' | 'support', options: { name?: string; mustChangePassword?: boolean } = {}): Promise<ConsoleAccount> {
  const created = await createConsoleUser(
    { kind: 'system', name: 'test' },
    { email, name: options.name ?? email.split('@')[0]!, role, mustChangePassword: options.mustChangePassword ?? false },
  );
  if (!created.ok) throw new Error(created.error.message);
  return { id: created.value.user.id, email, password: created.value.password };
}

/** An invitation to `integration` for `email` as `role`, sent by staff: its id and the code its printed link carries. */
export async function invitePortalMember(integration: TestIntegration, email: string, role: string): Promise<{ id: number; code: string }> {
  const printed: string[] = [];
  const sent = await invitePortalUser({ kind: 'staff', actor: TEST_ACTOR, integrationId: integration.id }, { email, role }, { printer: (line) => printed.push(line) });
  if (!sent.ok) throw new Error(sent.error.message);
  return { id: sent.value.id, code: /codigo=([A-Za-z0-9_-]{43})/.exec(printed.at(-1) ?? '')![1]! };
}

/** A member of `integration`: invited, and accepted with PORTAL_PASSWORD; `name` is the address's local part unless given. */
export async function addPortalMember(integration: TestIntegration, email: string, role: string, name = email.split('@')[0]!): Promise<void> {
  const { code } = await invitePortalMember(integration, email, role);
  const accepted = await acceptInvitation(code, { nombre: name, clave: PORTAL_PASSWORD }, { clientIp: '192.0.2.1', userAgent: 'vitest' });
  if (!accepted.ok) throw new Error(accepted.error.message);
}

/** A member added as addPortalMember does, as the top-up flows take their portal user (a Reporter). */
export async function portalReporter(integration: TestIntegration, email: string, role: Reporter['role']): Promise<Reporter> {
  await addPortalMember(integration, email, role);
  const [row] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, email));
  const session = portalSessionOf(integration, role);
  return { id: row!.id, role, integrationId: integration.id, actor: { ...session.actor, id: row!.id, email } };
}

let addresses = 0;

/** A portal client with no session, from an address of its own (someone who never signed in). */
export function signedOutPortalClient(baseUrl: string): PortalClient {
  return new PortalClient(baseUrl, { 'x-forwarded-for': `203.0.113.${++addresses}` });
}

/** A portal session of the member `email`, signed in through the portal's form. */
export async function portalSignedIn(baseUrl: string, email: string): Promise<PortalClient> {
  const client = signedOutPortalClient(baseUrl);
  const answer = await client.portalSignIn(email, PORTAL_PASSWORD);
  expect(answer.status, answer.text.slice(0, 300)).toBe(303);
  return client;
}

/**
 * A console session of `account` through next-auth's sign-in, with `headers` (an address and a
 * browser) or from an address of its own. A PortalClient, which is a console client that can also
 * post a page's form as a browser without scripts does.
 */
export async function consoleSignedIn(
  baseUrl: string,
  account: { email: string; password: string },
  headers: Record<string, string> = { 'x-forwarded-for': `198.51.100.${++addresses}` },
): Promise<PortalClient> {
  const client = new PortalClient(baseUrl, headers);
  expect(await client.signIn(account.email, account.password)).toBeNull();
  return client;
}

/** The session the portal would resolve for a member of `integration`, for reads that use only its integration and role (no HTTP). */
export function portalSessionOf(integration: TestIntegration, role: PortalUserSession['role'] = 'propietario'): PortalUserSession {
  return {
    id: 1,
    email: `persona@${integration.nombre}.example`,
    name: 'Persona',
    role,
    integrationId: integration.id,
    integrationName: integration.nombre,
    actor: { kind: 'integrator', id: 1, email: `persona@${integration.nombre}.example`, integrationId: integration.id, integrationName: integration.nombre },
    pendingStep: null,
    sessionPublicId: 'x',
    origin: 'local',
  };
}
