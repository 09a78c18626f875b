import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { fetch as undiciFetch } from 'undici';
import { z } from 'zod';
import { db } from '@/db/client';
import { integrationIdentityProviders, integrations, portalUsers, type IntegrationIdentityProvider, type PortalRole } from '@/db/schema';
import { writeAudit, type Actor, type Executor } from '@/lib/core/audit/audit';
import { seal } from '@/lib/core/sealing/envelope';
import { fail, ok, type Result } from '@/lib/platform/result';
import { checkedDispatcher, OUTBOUND_TARGET_REFUSED, outboundTargetProblem, type TargetPolicy } from '@/lib/platform/security/outbound-targets';
import { outboundTargetPolicy } from '@/lib/platform/settings/outbound-targets';
import { portalLink } from './links';
import { PORTAL_ROLES } from './roles';

// Each integration's own identity provider for the portal (issue 67, docs/sso.md): its owners name
// their company's OpenID Provider in "Equipo", and the members whose e-mail is of the company's
// domain sign in through it (lib/flows/portal-identity/sso.ts), their role following the
// provider's groups; the break-glass members keep their password. This is the configuration: what
// is read back (never the client secret), what is saved and how it is checked first.
//
// The issuer is the integrator's to choose, so it is a server-side request forgery as a webhook is:
// the same policy (lib/platform/security/outbound-targets.ts, INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS
// read by lib/platform/settings/outbound-targets.ts)
// decides which addresses it may name, and the discovery document is fetched through a dispatcher
// that checks every address it connects to.

/** Who names the integration's provider, changes it and removes it ("Equipo"): its owners. */
export const IDENTITY_PROVIDER_MANAGERS: readonly PortalRole[] = ['propietario'];

/** How long the discovery document is waited for when saving. */
export const DISCOVERY_TIMEOUT_MS = 10_000;
/** A discovery document is a few kilobytes; more than this is not one. */
const DISCOVERY_MAX_BYTES = 512 * 1024;

/** Where the provider sends the member back, and where it tells of a sign-out: what the owner registers there. */
export interface IdentityProviderRedirectUris {
  callback: string;
  backchannelLogout: string;
}

/** The portal's addresses the owner registers at their provider, under the service's public URL. */
export function identityProviderRedirectUris(baseUrl: string): IdentityProviderRedirectUris {
  const base = baseUrl.replace(/\/+$/, '');
  return { callback: `${base}/portal/sso/retorno`, backchannelLogout: `${base}/api/portal/sso/cierre-de-sesion` };
}

/**
 * The portal's public origin, as its e-mailed links have it (links.ts): NEXTAUTH_URL, or in
 * development the app's own listening address; never the request's Host.
 */
export function portalPublicOrigin(): string {
  return new URL(portalLink('/', 'origen')).origin;
}

/** An integration's provider as read back: everything but the client secret, which is only ever written. */
export interface IntegrationIdentityProviderView {
  integrationId: number;
  issuer: string;
  clientId: string;
  emailDomain: string;
  roleClaim: string;
  /** The claim's values that give each portal role. */
  roleValues: Record<PortalRole, string[]>;
  /** Members who keep their password while the provider is on. */
  breakGlassEmails: string[];
  updatedAt: Date;
}

/** What the owner types: the lists as text, comma-separated (a line break separates too). */
export interface IdentityProviderInput {
  issuer: string;
  clientId: string;
  /** Required the first time and when the issuer changes; empty keeps the stored one. */
  clientSecret?: string;
  emailDomain: string;
  /** Empty: `groups`. */
  roleClaim?: string;
  roleValues: Partial<Record<PortalRole, string>>;
  breakGlassEmails?: string;
}

/** The field of the form a refusal is about. */
export type IdentityProviderField = 'issuer' | 'clientId' | 'clientSecret' | 'emailDomain' | 'roleClaim' | 'roleValues' | 'breakGlassEmails';

/**
 * Why a provider is not saved: a field that does not validate (`invalid_<field>`), the domain of
 * another integration, a break-glass address that is no member, a discovery that does not answer as
 * the issuer's, the integration gone, or an owner who no longer is one.
 */
export type IdentityProviderError = `invalid_${IdentityProviderField}` | 'domain_taken' | 'not_member' | 'discovery' | 'not_found' | 'not_owner';

/** The field each refusal is shown beside, or null when it is about the whole form. */
export function identityProviderErrorField(code: IdentityProviderError): IdentityProviderField | null {
  if (code.startsWith('invalid_')) return code.slice('invalid_'.length) as IdentityProviderField;
  if (code === 'domain_taken') return 'emailDomain';
  if (code === 'not_member') return 'breakGlassEmails';
  if (code === 'discovery') return 'issuer';
  return null;
}

export const IDENTITY_PROVIDER_MESSAGES = {
  issuerRequired: 'Escriba el emisor de su proveedor de identidad, por ejemplo https://login.microsoftonline.com/<id de su directorio>/v2.0.',
  issuerQuery: 'La dirección del emisor no lleva «?» ni «#»: escríbala como la publica su proveedor.',
  clientIdRequired: 'Escriba el id de cliente que le dio su proveedor al registrar el portal.',
  clientIdTooLong: 'El id de cliente es demasiado largo (500 caracteres como máximo).',
  secretRequired: 'Escriba el secreto del cliente que le dio su proveedor al registrar el portal.',
  secretRequiredForNewIssuer: 'Cambió el emisor: escriba también el secreto del cliente que le dio ese proveedor (el guardado era del anterior).',
  secretTooLong: 'El secreto del cliente es demasiado largo (2000 caracteres como máximo).',
  domain: 'Escriba el dominio de correo de su empresa, por ejemplo empresa.com.gt (sin @ ni nombre de usuario).',
  publicDomain: 'Ese dominio es de un servicio de correo abierto a cualquiera: escriba el dominio propio de su empresa.',
  roleClaim: 'El atributo de roles es un nombre sin espacios, por ejemplo groups (hasta 200 caracteres).',
  roleValuesNone: 'Escriba al menos un valor para alguno de los roles: sin ninguno, nadie de su empresa podría entrar.',
  roleValuesTooMany: 'Son demasiados valores para un rol (50 como máximo, de hasta 200 caracteres cada uno).',
  breakGlassTooMany: 'Son demasiadas cuentas de emergencia (20 como máximo).',
  notOwner: 'Ya no es propietario de esta integración: no puede cambiar cómo entra su equipo.',
  notFound: 'Esa integración no existe.',
  notConfigured: 'Su integración no tiene un proveedor de identidad configurado.',
} as const;

const lines = (text: string | undefined) =>
  (text ?? '')
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** A domain name: two labels or more, each of letters, digits and hyphens (not at its ends), a top-level label of letters (or IDN). */
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Mail services anyone opens an account at: no company's domain, and no one's to claim. */
const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'outlook.es', 'hotmail.com', 'hotmail.es', 'live.com', 'msn.com', 'yahoo.com', 'yahoo.es',
  'icloud.com', 'me.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.com', 'yandex.com', 'mail.com', 'zoho.com',
]);

function inputSchema(policy: TargetPolicy) {
  const roleList = z
    .string()
    .max(12_000)
    .optional()
    .transform((text) => [...new Set(lines(text))])
    .refine((values) => values.length <= 50 && values.every((value) => value.length <= 200), { message: IDENTITY_PROVIDER_MESSAGES.roleValuesTooMany });
  return z.object({
    issuer: z
      .string()
      .trim()
      .min(1, IDENTITY_PROVIDER_MESSAGES.issuerRequired)
      .superRefine((issuer, ctx) => {
        const problem = outboundTargetProblem(issuer, policy);
        if (problem) ctx.addIssue({ code: 'custom', message: `La dirección del emisor no sirve: ${problem}.` });
        else if (issuer.includes('?') || issuer.includes('#')) ctx.addIssue({ code: 'custom', message: IDENTITY_PROVIDER_MESSAGES.issuerQuery });
      }),
    clientId: z.string().trim().min(1, IDENTITY_PROVIDER_MESSAGES.clientIdRequired).max(500, IDENTITY_PROVIDER_MESSAGES.clientIdTooLong),
    clientSecret: z
      .string()
      .max(2_000, IDENTITY_PROVIDER_MESSAGES.secretTooLong)
      .optional()
      .transform((secret) => (secret?.trim() ? secret.trim() : undefined)),
    emailDomain: z
      .string()
      .trim()
      .transform((domain) => withoutTrailingDot(domain.toLowerCase().replace(/^@/, '')))
      .refine((domain) => DOMAIN.test(domain), { message: IDENTITY_PROVIDER_MESSAGES.domain })
      .refine((domain) => !PUBLIC_MAIL_DOMAINS.has(domain), { message: IDENTITY_PROVIDER_MESSAGES.publicDomain }),
    roleClaim: z
      .string()
      .trim()
      .optional()
      .transform((claim) => claim || 'groups')
      .refine((claim) => /^\S{1,200}$/.test(claim), { message: IDENTITY_PROVIDER_MESSAGES.roleClaim }),
    roleValues: z
      .object({ propietario: roleList, desarrollador: roleList, facturacion: roleList })
      .refine((values) => PORTAL_ROLES.some((role) => values[role].length > 0), { message: IDENTITY_PROVIDER_MESSAGES.roleValuesNone }),
    breakGlassEmails: z
      .string()
      .max(10_000)
      .optional()
      .transform((text) => [...new Set(lines(text).map((email) => email.toLowerCase()))])
      .superRefine((emails, ctx) => {
        if (emails.length > 20) ctx.addIssue({ code: 'custom', message: IDENTITY_PROVIDER_MESSAGES.breakGlassTooMany });
        const wrong = emails.find((email) => !z.email().safeParse(email).success);
        if (wrong) ctx.addIssue({ code: 'custom', message: `«${wrong}» no es un correo válido: separe las cuentas de emergencia con comas.` });
      }),
  });
}

type ParsedInput = z.output<ReturnType<typeof inputSchema>>;

function withoutTrailingDot(text: string): string {
  return text.replace(/\.+$/, '');
}

const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

function toView(row: IntegrationIdentityProvider): IntegrationIdentityProviderView {
  const stored = row.roleValues ?? {};
  return {
    integrationId: row.integrationId,
    issuer: row.issuer,
    clientId: row.clientId,
    emailDomain: row.emailDomain,
    roleClaim: row.roleClaim,
    roleValues: Object.fromEntries(PORTAL_ROLES.map((role) => [role, Array.isArray(stored[role]) ? stored[role] : []])) as Record<PortalRole, string[]>,
    breakGlassEmails: row.breakGlassEmails ?? [],
    updatedAt: row.updatedAt,
  };
}

/** What the audit keeps of a provider: everything but the secret. */
function auditSnapshot(view: Omit<IntegrationIdentityProviderView, 'integrationId' | 'updatedAt'>) {
  return {
    issuer: view.issuer,
    clientId: view.clientId,
    emailDomain: view.emailDomain,
    roleClaim: view.roleClaim,
    roleValues: view.roleValues,
    breakGlassEmails: view.breakGlassEmails,
  };
}

async function providerRow(executor: Executor, integrationId: number): Promise<IntegrationIdentityProvider | undefined> {
  const [row] = await executor.select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, integrationId));
  return row;
}

/** The integration's provider, without its secret; null when it has none. */
export async function readIntegrationIdentityProvider(integrationId: number): Promise<IntegrationIdentityProviderView | null> {
  const row = await providerRow(await db(), integrationId);
  return row ? toView(row) : null;
}

/** Whether another integration names this domain already. */
async function domainTaken(executor: Executor, integrationId: number, domain: string): Promise<boolean> {
  const [other] = await executor
    .select({ integrationId: integrationIdentityProviders.integrationId })
    .from(integrationIdentityProviders)
    .where(and(sql`lower(${integrationIdentityProviders.emailDomain}) = ${domain}`, ne(integrationIdentityProviders.integrationId, integrationId)))
    .limit(1);
  return other !== undefined;
}

/** The first break-glass address that is not a current member of the integration, if any. */
async function firstNonMember(executor: Executor, integrationId: number, emails: string[]): Promise<string | undefined> {
  if (emails.length === 0) return undefined;
  const members = await executor
    .select({ email: portalUsers.email })
    .from(portalUsers)
    .where(and(eq(portalUsers.integrationId, integrationId), isNull(portalUsers.removedAt)));
  const known = new Set(members.map((member) => member.email.toLowerCase()));
  return emails.find((email) => !known.has(email));
}

const domainTakenMessage = (domain: string) =>
  `Otra integración ya usa el dominio ${domain} para entrar con su proveedor de identidad, y cada dominio es de una sola integración. Si el dominio es de su empresa, escriba a soporte.`;

const notMemberMessage = (email: string) => `Las cuentas de emergencia deben ser personas del equipo de la integración: ${email} no lo es. Invítela primero, o quítela de la lista.`;

/** For an owner's change: whether the acting person still is an owner of this integration (the session was read before). */
async function ownerStillOwns(executor: Executor, actor: Actor, integrationId: number): Promise<boolean> {
  if (actor.kind !== 'integrator') return true;
  if (actor.integrationId !== integrationId) return false;
  const [owner] = await executor
    .select({ id: portalUsers.id })
    .from(portalUsers)
    .where(and(eq(portalUsers.id, actor.id), eq(portalUsers.integrationId, integrationId), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)))
    .for('share');
  return owner !== undefined;
}

/** What the discovery document says of the issuer, read before saving; a refusal in words when it is not the issuer's. */
async function checkDiscovery(issuer: string, policy: TargetPolicy): Promise<Result<{ issuer: string }, 'discovery'>> {
  const base = issuer.replace(/\/+$/, '');
  const address = `${base}/.well-known/openid-configuration`;
  const refuse = (why: string) => fail('discovery' as const, `No pudimos comprobar su proveedor: ${why} Revise el emisor e intente de nuevo.`);
  const dispatcher = checkedDispatcher(policy);
  let text: string;
  let status: number;
  try {
    const response = await undiciFetch(address, { dispatcher, redirect: 'error', signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), headers: { accept: 'application/json' } });
    status = response.status;
    text = status === 200 ? await limitedText(response.body, DISCOVERY_MAX_BYTES) : '';
    if (status !== 200) await response.body?.cancel().catch(() => {});
  } catch (error) {
    return refuse(discoveryFailure(error, address));
  } finally {
    dispatcher.close().catch(() => {});
  }
  if (status !== 200) return refuse(`${address} respondió con el código ${status} en lugar de su configuración de OpenID Connect.`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return refuse(`${address} no respondió con la configuración de OpenID Connect (un documento JSON).`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return refuse(`${address} no respondió con la configuración de OpenID Connect (un documento JSON).`);
  const fields = document as Record<string, unknown>;
  // OpenID Connect Discovery 1.0, 4.3: the issuer the document names is the one asked for.
  if (typeof fields.issuer !== 'string' || !sameIssuer(fields.issuer, issuer)) {
    return typeof fields.issuer === 'string'
      ? fail('discovery', `Su proveedor se presenta con otro emisor: ${fields.issuer}. Escriba el emisor exactamente como lo publica su proveedor.`)
      : refuse('su configuración no dice cuál es su emisor.');
  }
  const endpoints = { authorization_endpoint: 'la dirección de inicio de sesión', token_endpoint: 'la dirección de los tokens', jwks_uri: 'la dirección de sus claves de firma' } as const;
  const missing = (Object.keys(endpoints) as (keyof typeof endpoints)[]).filter((name) => typeof fields[name] !== 'string' || !URL.canParse(fields[name] as string));
  if (missing.length > 0) return refuse(`su configuración no indica ${missing.map((name) => endpoints[name]).join(' ni ')}.`);
  // The service itself calls these two: the same policy as the issuer.
  for (const name of ['token_endpoint', 'jwks_uri'] as const) {
    const problem = outboundTargetProblem(fields[name] as string, policy);
    if (problem) return refuse(`su configuración indica ${endpoints[name]} ${String(fields[name])}, que no podemos usar: ${problem}.`);
  }
  return ok({ issuer: fields.issuer });
}

/** The body as text, refused past `maxBytes`. */
async function limitedText(body: Awaited<ReturnType<typeof undiciFetch>>['body'], maxBytes: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done || !value) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw Object.assign(new Error('discovery document too large'), { code: 'ETOOLARGE' });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Why the discovery document could not be read, in words. */
function discoveryFailure(error: unknown, address: string): string {
  const codes: string[] = [];
  const messages: string[] = [];
  for (let current = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; current && depth < 5; current = current.cause as typeof current, depth++) {
    if (typeof current.code === 'string') codes.push(current.code);
    if (typeof current.name === 'string') codes.push(current.name);
    if (typeof current.message === 'string') messages.push(current.message);
  }
  if (codes.includes('TimeoutError')) return `${address} no respondió en ${DISCOVERY_TIMEOUT_MS / 1000} segundos.`;
  if (codes.includes(OUTBOUND_TARGET_REFUSED)) {
    const reason = messages.find((message) => message.startsWith('destino rechazado: '))?.slice('destino rechazado: '.length);
    return `la dirección del emisor no sirve${reason ? `: ${reason}` : ''}.`;
  }
  if (codes.includes('ETOOLARGE')) return `${address} respondió con un documento demasiado grande para ser su configuración.`;
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) return `el nombre de ${new URL(address).host} no existe o no se pudo resolver.`;
  if (messages.some((message) => /redirect/i.test(message))) return `${address} respondió con una redirección; escriba el emisor exactamente como lo publica su proveedor.`;
  if (codes.some((code) => /CERT|SSL|TLS/.test(code))) return `el certificado de ${new URL(address).host} no es válido.`;
  return `no se pudo conectar con ${new URL(address).host}.`;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}

function invalid(field: IdentityProviderField, message: string) {
  return fail(`invalid_${field}` as const, message);
}

/**
 * Saves the integration's provider (creates it or changes it) after checking it: the fields, the
 * domain (one integration per domain), the break-glass members (current members of the team), and
 * the issuer's discovery document, which must answer as that issuer with its endpoints. The issuer
 * stored is the one the document names (the ID tokens carry it so). Audited without the secret.
 */
export async function saveIntegrationIdentityProvider(
  actor: Actor,
  integrationId: number,
  input: IdentityProviderInput,
): Promise<Result<IntegrationIdentityProviderView, IdentityProviderError>> {
  const policy = outboundTargetPolicy();
  const parsed = inputSchema(policy).safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return invalid(issue.path[0] as IdentityProviderField, issue.message);
  }
  const wanted: ParsedInput = parsed.data;
  const handle = await db();
  const [integration] = await handle.select({ id: integrations.id }).from(integrations).where(eq(integrations.id, integrationId));
  if (!integration) return fail('not_found', IDENTITY_PROVIDER_MESSAGES.notFound);
  const existing = await providerRow(handle, integrationId);
  if (!wanted.clientSecret) {
    if (!existing) return invalid('clientSecret', IDENTITY_PROVIDER_MESSAGES.secretRequired);
    // The stored secret goes only to the provider it was given for: another issuer's token endpoint never receives it.
    if (!sameIssuer(existing.issuer, wanted.issuer)) return invalid('clientSecret', IDENTITY_PROVIDER_MESSAGES.secretRequiredForNewIssuer);
  }
  // Nothing is fetched for someone who may not change it.
  if (!(await ownerStillOwns(handle, actor, integrationId))) return fail('not_owner', IDENTITY_PROVIDER_MESSAGES.notOwner);
  if (await domainTaken(handle, integrationId, wanted.emailDomain)) return fail('domain_taken', domainTakenMessage(wanted.emailDomain));
  const stranger = await firstNonMember(handle, integrationId, wanted.breakGlassEmails);
  if (stranger) return fail('not_member', notMemberMessage(stranger));

  const discovered = await checkDiscovery(wanted.issuer, policy);
  if (!discovered.ok) return discovered;

  const values = {
    issuer: discovered.value.issuer,
    clientId: wanted.clientId,
    emailDomain: wanted.emailDomain,
    roleClaim: wanted.roleClaim,
    roleValues: { propietario: wanted.roleValues.propietario, desarrollador: wanted.roleValues.desarrollador, facturacion: wanted.roleValues.facturacion },
    breakGlassEmails: wanted.breakGlassEmails,
  };
  try {
    return await handle.transaction(async (tx) => {
      if (!(await ownerStillOwns(tx, actor, integrationId))) return fail('not_owner', IDENTITY_PROVIDER_MESSAGES.notOwner);
      const stillStranger = await firstNonMember(tx, integrationId, wanted.breakGlassEmails);
      if (stillStranger) return fail('not_member', notMemberMessage(stillStranger));
      const [before] = await tx.select().from(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, integrationId)).for('update');
      const clientSecretSealed = wanted.clientSecret ? seal(wanted.clientSecret, 'identity_provider_client_secret') : before?.clientSecretSealed;
      if (!clientSecretSealed) return invalid('clientSecret', IDENTITY_PROVIDER_MESSAGES.secretRequired);
      const [saved] = before
        ? await tx
            .update(integrationIdentityProviders)
            .set({ ...values, clientSecretSealed, updatedAt: sql`now()` })
            .where(eq(integrationIdentityProviders.integrationId, integrationId))
            .returning()
        : await tx
            .insert(integrationIdentityProviders)
            .values({ integrationId, ...values, clientSecretSealed })
            .returning();
      await writeAudit(tx, actor, {
        action: 'integration.identity_provider_set',
        targetType: 'integration',
        targetId: integrationId,
        before: before ? auditSnapshot(toView(before)) : null,
        after: { ...auditSnapshot(values), ...(wanted.clientSecret ? { clientSecret: 'cambiado' } : {}) },
      });
      return ok(toView(saved!));
    });
  } catch (error) {
    // Another integration took the domain between the check and the write (the unique index).
    if (isUniqueViolation(error)) return fail('domain_taken', domainTakenMessage(wanted.emailDomain));
    throw error;
  }
}

/** Removes the integration's provider: its members sign in with their passwords again. Audited. */
export async function removeIntegrationIdentityProvider(actor: Actor, integrationId: number): Promise<Result<IntegrationIdentityProviderView, 'not_configured' | 'not_owner'>> {
  return (await db()).transaction(async (tx) => {
    if (!(await ownerStillOwns(tx, actor, integrationId))) return fail('not_owner', IDENTITY_PROVIDER_MESSAGES.notOwner);
    const [removed] = await tx.delete(integrationIdentityProviders).where(eq(integrationIdentityProviders.integrationId, integrationId)).returning();
    if (!removed) return fail('not_configured', IDENTITY_PROVIDER_MESSAGES.notConfigured);
    const view = toView(removed);
    await writeAudit(tx, actor, { action: 'integration.identity_provider_remove', targetType: 'integration', targetId: integrationId, before: auditSnapshot(view), after: null });
    return ok(view);
  });
}
