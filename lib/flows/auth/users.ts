import { setTimeout as sleep } from 'node:timers/promises';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/db/client';
import { consoleUsers, NO_PASSWORD, type ConsoleRole, type ConsoleUser } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/core/audit/audit';
import { auditPasswordChangeRefusal } from '@/lib/flows/auth/access-audit';
import { passwordChangeRefusalMessage, WRONG_CURRENT_PASSWORD } from '@/lib/flows/auth/password-change-errors';
import {
  beginPasswordChangeAttempt,
  recordPasswordChangeFailure,
  recordPasswordChangeSuccess,
  type ThrottleScope,
} from '@/lib/flows/auth/throttle';
import { logger } from '@/lib/platform/logging/logger';
import { isCommonPassword, newPasswordProblem, PASSWORD_RULE_MESSAGES, type PasswordOwner } from '@/lib/flows/passwords/policy';
import { fail, ok, type Result } from '@/lib/platform/result';
import { generatePassword, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '@/lib/platform/security/passwords';
import { env } from '@/lib/platform/settings/env';

export type ConsoleUserView = Omit<ConsoleUser, 'passwordHash'>;

/** The longest e-mail address there can be (RFC 5321); sign-in refuses longer ones before any work. */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PASSWORD_LENGTH = 200;

export const userEmailSchema = z.email('Escriba un correo electrónico válido.').trim().toLowerCase().max(MAX_EMAIL_LENGTH);
export const userNameSchema = z.string().trim().min(2, 'Escriba el nombre de la persona.').max(120);
export const userRoleSchema = z.enum(['admin', 'support']);
/** A new password: long enough and not a common one (lib/flows/passwords/policy.ts). */
export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, PASSWORD_RULE_MESSAGES.tooShort)
  .max(MAX_PASSWORD_LENGTH)
  .refine((password) => !isCommonPassword(password), PASSWORD_RULE_MESSAGES.common);

/** The owner's own words and zxcvbn's judgement, for a password a person chose (lib/flows/passwords/policy.ts). */
function chosenPasswordProblem(password: string, owner: PasswordOwner): Promise<string | null> {
  return newPasswordProblem(password, owner);
}

export function toUserView(user: ConsoleUser): ConsoleUserView {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { passwordHash, ...view } = user;
  return view;
}

export type UserError = 'invalid' | 'email_taken' | 'not_found' | 'last_admin' | 'throttled';

export interface CreateUserInput {
  email: string;
  name: string;
  role: ConsoleRole;
  /** When absent a random password is generated and returned once. */
  password?: string;
  /**
   * Whether the user must choose their own password at first sign-in: yes (the default) when
   * someone else chose or saw it; only the development seed, whose admin is the developer who
   * reads the password at start, says no.
   */
  mustChangePassword?: boolean;
}

export async function createConsoleUser(
  actor: Actor,
  input: CreateUserInput,
): Promise<Result<{ user: ConsoleUserView; password: string }, UserError>> {
  const parsed = z
    .object({ email: userEmailSchema, name: userNameSchema, role: userRoleSchema, password: passwordSchema.optional() })
    .safeParse(input);
  if (!parsed.success) return fail('invalid', parsed.error.issues[0]!.message);
  const chosenProblem = parsed.data.password === undefined ? null : await chosenPasswordProblem(parsed.data.password, parsed.data);
  if (chosenProblem) return fail('invalid', chosenProblem);
  const password = parsed.data.password ?? generatePassword();
  const database = await db();
  const existing = await database
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(sql`lower(${consoleUsers.email}) = ${parsed.data.email}`);
  if (existing.length > 0) return fail('email_taken', `Ya existe un usuario con el correo ${parsed.data.email}.`);
  const passwordHash = await hashPassword(password, env().PASSWORD_HASH_COST);
  const user = await database.transaction(async (tx) => {
    const [row] = await tx
      .insert(consoleUsers)
      .values({ email: parsed.data.email, name: parsed.data.name, role: parsed.data.role, passwordHash, mustChangePassword: input.mustChangePassword ?? true })
      .returning();
    await writeAudit(tx, actor, {
      action: 'user.create',
      targetType: 'console_user',
      targetId: row!.id,
      before: null,
      after: { email: row!.email, name: row!.name, role: row!.role, active: row!.active },
    });
    return row!;
  });
  return ok({ user: toUserView(user), password });
}

export async function listConsoleUsers(): Promise<ConsoleUserView[]> {
  const rows = await (await db()).select().from(consoleUsers).orderBy(asc(consoleUsers.email));
  return rows.map(toUserView);
}

export async function findConsoleUserByEmail(email: string): Promise<ConsoleUser | undefined> {
  const [row] = await (await db())
    .select()
    .from(consoleUsers)
    .where(sql`lower(${consoleUsers.email}) = lower(${email.trim()})`);
  return row;
}

export async function findConsoleUser(id: number): Promise<ConsoleUser | undefined> {
  const [row] = await (await db()).select().from(consoleUsers).where(eq(consoleUsers.id, id));
  return row;
}

export async function countConsoleUsers(): Promise<number> {
  const [row] = await (await db()).select({ count: sql<number>`count(*)::int` }).from(consoleUsers);
  return Number(row?.count ?? 0);
}

type UserSnapshot = Pick<ConsoleUser, 'email' | 'name' | 'role' | 'active'>;

function userSnapshot(user: ConsoleUser): UserSnapshot {
  return { email: user.email, name: user.name, role: user.role, active: user.active };
}

const LAST_ADMIN_MESSAGE = 'Debe quedar al menos un administrador activo: asigna el rol de administrador a otra persona antes de hacer este cambio.';

/**
 * Runs one audited change to a console user in a transaction. Every active admin row is locked
 * first, so two admins demoting each other at the same time cannot leave the console without one.
 */
async function changeConsoleUser(
  actor: Actor,
  userId: number,
  action: string,
  change: (current: ConsoleUser) => Result<Partial<ConsoleUser>, UserError>,
  audit: (before: ConsoleUser, after: ConsoleUser) => { before: unknown; after: unknown } = (before, after) => ({
    before: userSnapshot(before),
    after: userSnapshot(after),
  }),
): Promise<Result<ConsoleUserView, UserError>> {
  return (await db()).transaction(async (tx) => {
    const activeAdmins = await tx
      .select({ id: consoleUsers.id })
      .from(consoleUsers)
      .where(sql`${consoleUsers.role} = 'admin' and ${consoleUsers.active}`)
      .for('update');
    const [current] = await tx.select().from(consoleUsers).where(eq(consoleUsers.id, userId)).for('update');
    if (!current) return fail('not_found', 'Ese usuario ya no existe.');
    const changes = change(current);
    if (!changes.ok) return changes;
    const remainsActiveAdmin = (changes.value.role ?? current.role) === 'admin' && (changes.value.active ?? current.active);
    const isActiveAdmin = current.role === 'admin' && current.active;
    if (isActiveAdmin && !remainsActiveAdmin && activeAdmins.length <= 1) return fail('last_admin', LAST_ADMIN_MESSAGE);
    const [updated] = await tx
      .update(consoleUsers)
      .set({ ...changes.value, updatedAt: sql`now()` })
      .where(eq(consoleUsers.id, userId))
      .returning();
    await writeAudit(tx, actor, { action, targetType: 'console_user', targetId: userId, ...audit(current, updated!) });
    return ok(toUserView(updated!));
  });
}

const ROLE_FROM_DIRECTORY = 'El rol de quien entra con el proveedor de identidad lo decide su directorio en cada inicio de sesión: cámbielo allí.';
const NO_PASSWORD_OF_OURS = 'Esta persona entra con el proveedor de identidad y no tiene contraseña en la consola.';

/** Changes a user's role; takes effect on the user's next request (sessions re-read the role). */
export function setConsoleUserRole(actor: Actor, userId: number, role: ConsoleRole) {
  const parsed = userRoleSchema.safeParse(role);
  if (!parsed.success) return Promise.resolve(fail('invalid' as const, 'Elija un rol válido: administrador o soporte.'));
  return changeConsoleUser(actor, userId, 'user.set_role', (current) => (current.origin === 'identity_provider' ? fail('invalid', ROLE_FROM_DIRECTORY) : ok({ role: parsed.data })));
}

/**
 * An administrator's explicit choice that a local account becomes the identity provider's user
 * with the same e-mail at its next sign-in through it (never done by e-mail alone): its password
 * stops working and its sessions end now. A break-glass account stays local.
 */
export function allowIdentityProviderLink(actor: Actor, userId: number, breakGlassEmails: readonly string[]) {
  return changeConsoleUser(
    actor,
    userId,
    'user.allow_identity_provider_link',
    (current) => {
      if (current.origin === 'identity_provider') return fail('invalid', 'Esta persona ya entra con el proveedor de identidad.');
      if (breakGlassEmails.includes(current.email.toLowerCase())) return fail('invalid', 'Es una cuenta de emergencia: sigue entrando con su contraseña para cuando el proveedor no responda.');
      return ok({ origin: 'identity_provider', passwordHash: NO_PASSWORD, passwordChangedAt: new Date(), mustChangePassword: false });
    },
    (before, after) => ({ before: { origin: before.origin }, after: { origin: after.origin } }),
  );
}

/** Deactivating signs the user out everywhere at their next request; their history stays. */
export function setConsoleUserActive(actor: Actor, userId: number, active: boolean) {
  return changeConsoleUser(actor, userId, active ? 'user.reactivate' : 'user.deactivate', () => {
    if (!active && actor.kind === 'user' && actor.id === userId) {
      return fail('invalid', 'No puede desactivar su propia cuenta; pida a otro administrador que lo haga.');
    }
    return ok({ active });
  });
}

/**
 * A new random password, returned once; every session the user had stops working, and the user
 * must choose their own password at their next sign-in.
 */
export async function resetConsoleUserPassword(
  actor: Actor,
  userId: number,
): Promise<Result<{ user: ConsoleUserView; password: string }, UserError>> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password, env().PASSWORD_HASH_COST);
  const result = await changeConsoleUser(
    actor,
    userId,
    'user.reset_password',
    (current) => (current.origin === 'identity_provider' ? fail('invalid', NO_PASSWORD_OF_OURS) : ok({ passwordHash, passwordChangedAt: new Date(), mustChangePassword: true })),
    // The audit row says that the password changed and when, never the password or its hash.
    (before, after) => ({ before: { passwordChangedAt: before.passwordChangedAt }, after: { passwordChangedAt: after.passwordChangedAt } }),
  );
  return result.ok ? ok({ user: result.value, password }) : result;
}

/**
 * A signed-in user's own password change: the current password is required, and guessing it is
 * throttled per account and per client IP like sign-ins (lib/flows/auth/throttle.ts), so a stolen
 * session cookie cannot search for the password. Wrong current passwords and the locks they
 * cause are written to the audit log; a refusal by a lock already in place checks nothing.
 */
export async function changeOwnPassword(
  actor: Extract<Actor, { kind: 'user' }>,
  currentPassword: string,
  newPassword: string,
  clientIp: string,
): Promise<Result<ConsoleUserView, UserError>> {
  const parsed = passwordSchema.safeParse(newPassword);
  if (!parsed.success) return fail('invalid', parsed.error.issues[0]!.message);
  if (parsed.data === currentPassword) return fail('invalid', 'La nueva contraseña debe ser distinta de la actual.');
  const owner = await findConsoleUser(actor.id);
  const chosenProblem = await chosenPasswordProblem(parsed.data, { email: actor.email, name: owner?.name });
  if (chosenProblem) return fail('invalid', chosenProblem);
  // Nothing longer than a password can be is counted or hashed (as at sign-in).
  if (!currentPassword || currentPassword.length > MAX_PASSWORD_LENGTH) return fail('invalid', WRONG_CURRENT_PASSWORD);

  const attempt = await beginPasswordChangeAttempt(actor.id, clientIp);
  if (!attempt.allowed) {
    if (attempt.lockedNow) await recordPasswordChangeRefusal(actor, false, attempt.lockedNow, clientIp);
    return fail('throttled', passwordChangeRefusalMessage(attempt.refusal));
  }
  if (attempt.delayMs > 0) await sleep(attempt.delayMs);
  const user = await findConsoleUser(actor.id);
  if (!user || !(await verifyPassword(currentPassword, user.passwordHash))) {
    const failure = await recordPasswordChangeFailure(attempt);
    await recordPasswordChangeRefusal(actor, true, failure.lockedNow, clientIp);
    return fail(failure.refusal.kind === 'invalid_credentials' || failure.refusal.kind === 'attempts_left' ? 'invalid' : 'throttled', passwordChangeRefusalMessage(failure.refusal));
  }
  await recordPasswordChangeSuccess(attempt);
  const passwordHash = await hashPassword(parsed.data, env().PASSWORD_HASH_COST);
  return changeConsoleUser(
    actor,
    actor.id,
    'user.change_password',
    () => ok({ passwordHash, passwordChangedAt: new Date(), mustChangePassword: false }),
    (before, after) => ({ before: { passwordChangedAt: before.passwordChangedAt }, after: { passwordChangedAt: after.passwordChangedAt } }),
  );
}

async function recordPasswordChangeRefusal(actor: Extract<Actor, { kind: 'user' }>, failed: boolean, lockedNow: ThrottleScope[], clientIp: string): Promise<void> {
  // The audit log keeps no addresses: the log line says which one a lock applies to.
  for (const scope of lockedNow) logger('auth').warn({ lockScope: scope, userId: actor.id, clientIp }, 'password changes locked after wrong current passwords');
  await auditPasswordChangeRefusal(actor, { failed, lockedNow });
}
