import { and, asc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/db/client';
import { portalInvitations, portalUsers, type PortalInvitation, type PortalRole } from '@/db/schema';
import { describeActor, writeAudit, type Actor } from '@/lib/core/audit/audit';
import type { SessionOrigin } from '@/lib/flows/auth/sessions';
import { findIntegration } from '@/lib/flows/integration-management/service';
import { newPasswordProblem } from '@/lib/flows/passwords/policy';
import { fail, ok, type Result } from '@/lib/platform/result';
import { hashPassword } from '@/lib/platform/security/passwords';
import { env } from '@/lib/platform/settings/env';
import { MAX_PASSWORD_LENGTH, userEmailSchema, userNameSchema } from '@/lib/flows/auth/users';
import { billingIdentifiers, findPortalAccountByEmail, integratorActor } from './accounts';
import { hashLinkCode, INVITATION_VALID_HOURS, isLinkCode, newLinkCode, portalLink } from './links';
import { portalMailAvailable, printOnTerminal, sendInvitation, type LinkPrinter } from './mail';
import { PORTAL_ROLES } from './roles';
import type { PortalUserSession } from './sessions';
import { startPortalSession } from './sessions';

// Invitations to an integration's portal: an administrator (console or CLI)
// invites an integration's first owner, an owner the rest of its people. A single-use link valid
// 72 hours, sent by e-mail (lib/flows/portal-identity/mail.ts), recorded in the audit with who invited whom.

export const INVITATION_PATH = '/portal/invitacion';

/** Who invites: staff (the console's administrators, the CLI) name the integration; an owner invites into its own. */
export type Inviter = { kind: 'staff'; actor: Actor; integrationId: number; name?: string } | { kind: 'owner'; user: PortalUserSession };

export type InvitationError = 'invalid' | 'not_found' | 'already_member' | 'other_integration' | 'no_mail' | 'not_sent' | 'not_owner' | 'too_many';

/**
 * At most this many invitations an integration's owners send in an hour (staff's are not counted):
 * an owner's session, or someone holding it, cannot turn the portal into a mail cannon.
 */
export const OWNER_INVITATIONS_PER_HOUR = 20;

export const INVITATION_MESSAGES = {
  role: 'Elija el rol de la persona: propietario, desarrollador o facturación.',
  checkField: 'No se envió la invitación: revise el campo marcado.',
  noMail:
    'Este servicio no tiene servidor de correo: la invitación no se puede enviar. Configure ALERT_SMTP_HOST y ALERT_EMAIL_FROM (ALERT_SMTP_*, con STARTTLS o ALERT_SMTP_SECURE) y vuelva a invitar.',
  handOverReason: 'Falta el motivo para entregar el enlace sin correo (quién lo pidió y por qué): queda en la auditoría.',
  alreadyMember: 'Esa persona ya es parte del equipo de esta integración.',
  notFound: 'Esa integración no existe.',
  linkUnusable: 'Este enlace ya no sirve: ya se usó o se reemplazó por una invitación más reciente. Pida una invitación nueva a quien le invitó.',
  linkCancelled: 'Esta invitación fue cancelada: el enlace ya no sirve. Si aún necesita entrar al portal, pida una invitación nueva a quien le invitó.',
  linkExpired: `Este enlace venció: las invitaciones sirven ${INVITATION_VALID_HOURS} horas. Pida una invitación nueva a quien le invitó.`,
  emailTaken:
    'Ya tiene una cuenta del portal con este correo, en otra integración. Cada correo es una sola cuenta: si trabaja para dos integradores, pida a quien le invitó que use otro correo suyo.',
  passwordsDiffer: 'Las dos contraseñas no coinciden.',
  tooMany: `Su integración ya envió ${OWNER_INVITATIONS_PER_HOUR} invitaciones en la última hora, el máximo: espere un rato y vuelva a intentarlo.`,
  notOwner: 'Ya no es propietario de esta integración: no puede invitar a nadie.',
  notSentToOwner: 'No se pudo enviar el correo; inténtelo más tarde. La invitación no quedó pendiente.',
} as const;

/** An address that already has an account in another integration, as staff are told (they see every integration). */
export function otherIntegrationMessage(integrationName: string): string {
  return `Ese correo ya tiene una cuenta del portal en la integración «${integrationName}». Cada correo es una sola cuenta: una persona que trabaja para dos integradores entra con un correo distinto en cada una.`;
}

export interface InvitationDelivery {
  printer?: LinkPrinter;
  /**
   * A resend: the invitation this one replaces. It must still be open (not accepted nor revoked)
   * when the new one is written, in the same transaction, or nothing is sent and `missing` is the
   * answer; the audit says "Reenvió una invitación".
   */
  replacing?: { id: number; missing: string };
  /** Who the e-mail names as inviting, for staff (an owner is named from their session); none for the CLI. */
  inviterName?: string;
  /**
   * No e-mail: the link goes to `printer` once (the CLI's answer), for an operator who hands it
   * over by other means. Production too, so the reason is required and audited; the link never is.
   */
  handOver?: { reason: string };
}

const inviteSchema = z.object({ email: userEmailSchema, role: z.enum(PORTAL_ROLES, { error: INVITATION_MESSAGES.role }) });

export interface SentInvitation {
  id: number;
  email: string;
  role: PortalRole;
  integrationName: string;
  expiresAt: Date;
  /**
   * 'terminal': development without SMTP printed the link (on the app's terminal, or in the CLI's
   * answer); 'handed_over': printed for the operator to hand over (InvitationDelivery.handOver).
   */
  delivery: 'email' | 'terminal' | 'handed_over';
  /** It replaced an open invitation of the same person (InvitationDelivery.replacing): "Invitación reenviada". */
  resent: boolean;
}

/**
 * Invites someone into an integration with a role. A pending invitation of the same address to
 * the same integration is replaced (its link stops working). An address with an account in this
 * integration is refused; one with an account in another is refused to staff with its name, and
 * to an owner not at all: an owner must not learn which addresses other integrations have, so the
 * person holding the address is told when they open the link (acceptInvitation). The link is
 * sent at once; one that could not be sent is withdrawn and the inviter told why.
 */
export async function invitePortalUser(
  inviter: Inviter,
  input: { email: unknown; role: unknown },
  delivery: InvitationDelivery = {},
): Promise<Result<SentInvitation, InvitationError>> {
  const parsed = inviteSchema.safeParse(input);
  if (!parsed.success) return fail('invalid', parsed.error.issues[0]!.message);
  const { email, role } = parsed.data;
  const target =
    inviter.kind === 'owner'
      ? { id: inviter.user.integrationId, nombre: inviter.user.integrationName }
      : await findIntegration(inviter.integrationId).then((found) => found && { id: found.id, nombre: found.nombre });
  if (!target) return fail('not_found', INVITATION_MESSAGES.notFound);
  const handOver = delivery.handOver && { reason: delivery.handOver.reason.trim() };
  if (handOver && (handOver.reason === '' || inviter.kind === 'owner')) return fail('invalid', INVITATION_MESSAGES.handOverReason);
  if (!handOver && !portalMailAvailable()) return fail('no_mail', INVITATION_MESSAGES.noMail);
  const existing = await findPortalAccountByEmail(email);
  if (existing?.integrationId === target.id) return fail('already_member', INVITATION_MESSAGES.alreadyMember);
  if (existing && inviter.kind === 'staff') return fail('other_integration', otherIntegrationMessage(existing.integrationName));

  const actor = inviter.kind === 'owner' ? inviter.user.actor : inviter.actor;
  const code = newLinkCode();
  const created = await (await db()).transaction(async (tx): Promise<Result<PortalInvitation, InvitationError>> => {
    if (inviter.kind === 'owner') {
      // The integration's owners' rows locked, as a team change locks them (lib/flows/portal-identity/team.ts):
      // the inviter is still an owner, and two invitations at once are counted one after the other.
      const owners = await tx
        .select({ id: portalUsers.id })
        .from(portalUsers)
        .where(and(eq(portalUsers.integrationId, target.id), eq(portalUsers.role, 'propietario'), isNull(portalUsers.removedAt)))
        .for('update');
      if (!owners.some((row) => row.id === inviter.user.id)) return fail('not_owner', INVITATION_MESSAGES.notOwner);
      const [sent] = await tx
        .select({ count: sql<number>`count(*)::integer` })
        .from(portalInvitations)
        .where(and(eq(portalInvitations.integrationId, target.id), isNotNull(portalInvitations.invitedByUserId), gt(portalInvitations.createdAt, sql`now() - interval '1 hour'`)));
      if (sent!.count >= OWNER_INVITATIONS_PER_HOUR) return fail('too_many', INVITATION_MESSAGES.tooMany);
    }
    if (delivery.replacing) {
      // Accepted, cancelled or replaced since the resend was asked for: nothing to send again.
      const [replaced] = await tx
        .update(portalInvitations)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(portalInvitations.id, delivery.replacing.id), eq(portalInvitations.integrationId, target.id), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt)))
        .returning({ id: portalInvitations.id });
      if (!replaced) return fail('not_found', delivery.replacing.missing);
    }
    await tx
      .update(portalInvitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(portalInvitations.integrationId, target.id), sql`lower(${portalInvitations.email}) = ${email}`, isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt)));
    const [row] = await tx
      .insert(portalInvitations)
      .values({
        integrationId: target.id,
        email,
        role,
        codeHash: hashLinkCode(code),
        invitedBy: describeActor(actor),
        invitedByUserId: inviter.kind === 'owner' ? inviter.user.id : null,
        expiresAt: sql`now() + make_interval(hours => ${INVITATION_VALID_HOURS})`,
      })
      .returning();
    await writeAudit(tx, actor, {
      action: handOver ? 'portal.invite_link_handed_over' : delivery.replacing ? 'portal.resend_invitation' : 'portal.invite',
      targetType: 'integration',
      targetId: target.id,
      before: null,
      after: { email, role, expiresAt: row!.expiresAt, ...(handOver ? { reason: handOver.reason } : {}) },
    });
    return ok(row!);
  });
  if (!created.ok) return created;
  const invitation = created.value;
  if (handOver) {
    const link = portalLink(INVITATION_PATH, code);
    (delivery.printer ?? printOnTerminal)(`Invitación al portal para ${email}: ${link}`, link);
    return ok({ id: invitation.id, email, role, integrationName: target.nombre, expiresAt: invitation.expiresAt, delivery: 'handed_over', resent: Boolean(delivery.replacing) });
  }

  const invitedBy = inviter.kind === 'owner' ? { kind: 'owner' as const, name: inviter.user.name } : { kind: 'staff' as const, name: inviter.name ?? delivery.inviterName };
  const sent = await sendInvitation(
    { to: email, link: portalLink(INVITATION_PATH, code), integrationName: target.nombre, role, expiresAt: invitation.expiresAt, invitedBy },
    delivery.printer ?? printOnTerminal,
  );
  if (!sent.ok) {
    await (await db()).transaction(async (tx) => {
      await tx.update(portalInvitations).set({ revokedAt: sql`now()` }).where(eq(portalInvitations.id, invitation.id));
      await writeAudit(tx, actor, { action: 'portal.invite_not_sent', targetType: 'integration', targetId: target.id, before: null, after: { email, role } });
    });
    if (sent.reason === 'not_configured') return fail('no_mail', INVITATION_MESSAGES.noMail);
    // The mail server's words (logged by lib/flows/portal-identity/mail.ts) are for the operators; an owner is
    // told only that it failed.
    return fail('not_sent', inviter.kind === 'owner' ? INVITATION_MESSAGES.notSentToOwner : `No se pudo enviar el correo de la invitación${sent.error ? ` (${sent.error})` : ''}: no quedó pendiente. Vuelva a intentarlo.`);
  }
  return ok({ id: invitation.id, email, role, integrationName: target.nombre, expiresAt: invitation.expiresAt, delivery: sent.via, resent: Boolean(delivery.replacing) });
}

/** An integration's invitation that has not been used, replaced or cancelled, nor expired. */
export interface PendingInvitation {
  id: number;
  email: string;
  role: PortalRole;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

export async function listPendingInvitations(integrationId: number): Promise<PendingInvitation[]> {
  return (await db())
    .select({
      id: portalInvitations.id,
      email: portalInvitations.email,
      role: portalInvitations.role,
      invitedBy: portalInvitations.invitedBy,
      createdAt: portalInvitations.createdAt,
      expiresAt: portalInvitations.expiresAt,
    })
    .from(portalInvitations)
    .where(and(eq(portalInvitations.integrationId, integrationId), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt), gt(portalInvitations.expiresAt, sql`now()`)))
    .orderBy(asc(portalInvitations.createdAt));
}

/** How long the console keeps listing an invitation that expired unanswered, so it can be sent again. */
export const EXPIRED_INVITATIONS_LISTED_DAYS = 30;

/** An invitation not accepted nor revoked: pending, or expired (no longer than EXPIRED_INVITATIONS_LISTED_DAYS ago). */
export interface OpenInvitation extends PendingInvitation {
  expired: boolean;
}

/** The console's list: an integration's pending invitations and those that expired recently, oldest first. */
export async function listOpenInvitations(integrationId: number): Promise<OpenInvitation[]> {
  const rows = await (await db())
    .select({
      id: portalInvitations.id,
      email: portalInvitations.email,
      role: portalInvitations.role,
      invitedBy: portalInvitations.invitedBy,
      createdAt: portalInvitations.createdAt,
      expiresAt: portalInvitations.expiresAt,
      expired: sql<boolean>`${portalInvitations.expiresAt} <= now()`,
    })
    .from(portalInvitations)
    .where(
      and(
        eq(portalInvitations.integrationId, integrationId),
        isNull(portalInvitations.acceptedAt),
        isNull(portalInvitations.revokedAt),
        gt(portalInvitations.expiresAt, sql`now() - make_interval(days => ${EXPIRED_INVITATIONS_LISTED_DAYS})`),
      ),
    )
    .orderBy(asc(portalInvitations.createdAt));
  // A computed boolean, as lowBalanceIntegrations reads one: true from one driver, 'true' from another.
  return rows.map((row) => ({ ...row, expired: row.expired === true || String(row.expired) === 'true' }));
}

/** What an invitation link's page can say before anything is posted: who is invited where, or why the link no longer works. */
export type InvitationLinkState =
  | { state: 'valid'; email: string; role: PortalRole; integrationName: string; integrationIdentifiers: string[]; expiresAt: Date }
  | { state: 'expired' }
  | { state: 'cancelled' }
  | { state: 'unusable' };

/** What the invitation page and a refused acceptance say for a link that no longer opens. */
export function unusableLinkMessage(state: 'expired' | 'cancelled' | 'unusable'): string {
  return state === 'expired' ? INVITATION_MESSAGES.linkExpired : state === 'cancelled' ? INVITATION_MESSAGES.linkCancelled : INVITATION_MESSAGES.linkUnusable;
}

/** Reads a link without using it (opening the page, or a mail scanner fetching it, spends nothing). */
export async function invitationForCode(code: unknown): Promise<InvitationLinkState> {
  if (!isLinkCode(code)) return { state: 'unusable' };
  const [row] = await (await db())
    .select({ invitation: portalInvitations, expired: sql<boolean>`${portalInvitations.expiresAt} <= now()` })
    .from(portalInvitations)
    .where(eq(portalInvitations.codeHash, hashLinkCode(code)));
  if (!row || row.invitation.acceptedAt) return { state: 'unusable' };
  if (row.invitation.cancelledAt) return { state: 'cancelled' };
  if (row.invitation.revokedAt) return { state: 'unusable' };
  if (row.expired) return { state: 'expired' };
  const integration = await findIntegration(row.invitation.integrationId);
  if (!integration) return { state: 'unusable' };
  return {
    state: 'valid',
    email: row.invitation.email,
    role: row.invitation.role,
    integrationName: integration.nombre,
    integrationIdentifiers: billingIdentifiers(integration),
    expiresAt: row.invitation.expiresAt,
  };
}

export type AcceptanceError = 'invalid' | 'link' | 'email_taken';

export const acceptanceSchema = z
  .object({
    nombre: userNameSchema,
    clave: z.string().max(MAX_PASSWORD_LENGTH),
    repetida: z.string().max(MAX_PASSWORD_LENGTH),
  })
  .refine((value) => value.clave === value.repetida, { message: INVITATION_MESSAGES.passwordsDiffer, path: ['repetida'] });

class AcceptanceRefused extends Error {
  constructor(readonly refusal: { code: AcceptanceError; message: string }) {
    super(refusal.code);
  }
}

/**
 * Accepts an invitation: the person chooses their name and password (the console's policy), the
 * account is created with the invited role, the link is used up (a conditional update: two posts
 * of the same link cannot both create an account) and the person is signed in, all in one
 * transaction. The portal then asks for a second factor where it is required.
 */
export async function acceptInvitation(
  code: unknown,
  input: { nombre: string; clave: string },
  origin: SessionOrigin,
): Promise<Result<{ sessionId: string; userId: number; role: PortalRole }, AcceptanceError>> {
  const link = await invitationForCode(code);
  if (link.state !== 'valid') return fail('link', unusableLinkMessage(link.state));
  const problem = await newPasswordProblem(input.clave, { email: link.email, name: input.nombre, identifiers: link.integrationIdentifiers });
  if (problem) return fail('invalid', problem);
  if ((await findPortalAccountByEmail(link.email)) !== undefined) return fail('email_taken', INVITATION_MESSAGES.emailTaken);
  const passwordHash = await hashPassword(input.clave, env().PASSWORD_HASH_COST);
  try {
    const accepted = await (await db()).transaction(async (tx) => {
      const [invitation] = await tx
        .update(portalInvitations)
        .set({ acceptedAt: sql`now()` })
        .where(and(eq(portalInvitations.codeHash, hashLinkCode(code as string)), isNull(portalInvitations.acceptedAt), isNull(portalInvitations.revokedAt), gt(portalInvitations.expiresAt, sql`now()`)))
        .returning();
      if (!invitation) throw new AcceptanceRefused({ code: 'link', message: INVITATION_MESSAGES.linkUnusable });
      const [user] = await tx
        .insert(portalUsers)
        .values({ integrationId: invitation.integrationId, email: invitation.email, name: input.nombre, role: invitation.role, passwordHash })
        .returning();
      await tx.update(portalInvitations).set({ acceptedUserId: user!.id }).where(eq(portalInvitations.id, invitation.id));
      const actor = integratorActor({ id: user!.id, email: user!.email, integrationId: invitation.integrationId, integrationName: link.integrationName });
      await writeAudit(tx, actor, {
        action: 'portal_user.accept_invitation',
        targetType: 'portal_user',
        targetId: user!.id,
        before: null,
        after: { email: user!.email, name: user!.name, role: user!.role },
      });
      const sessionId = await startPortalSession(tx, actor, origin);
      return { sessionId, userId: user!.id, role: user!.role };
    });
    return ok(accepted);
  } catch (error) {
    if (error instanceof AcceptanceRefused) {
      // Cancelled (or used) between the page's read and this post: said as the page now would.
      const now = await invitationForCode(code);
      return fail(error.refusal.code, now.state === 'valid' ? error.refusal.message : unusableLinkMessage(now.state));
    }
    // Another acceptance took the address between the check and the insert (the unique index).
    if (isUniqueViolation(error)) return fail('email_taken', INVITATION_MESSAGES.emailTaken);
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
