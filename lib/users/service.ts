import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '@/db/client';
import { consoleUsers, type ConsoleRole, type ConsoleUser } from '@/db/schema';
import { writeAudit, type Actor } from '@/lib/audit/audit';
import { fail, ok, type Result } from '@/lib/result';
import { generatePassword, hashPassword, MIN_PASSWORD_LENGTH } from '@/lib/security/passwords';

export type ConsoleUserView = Omit<ConsoleUser, 'passwordHash'>;

export const userEmailSchema = z.email('Escribe un correo electrónico válido.').trim().toLowerCase().max(254);
export const userNameSchema = z.string().trim().min(2, 'Escribe el nombre de la persona.').max(120);
export const userRoleSchema = z.enum(['admin', 'support']);
export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`)
  .max(200);

export function toUserView(user: ConsoleUser): ConsoleUserView {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { passwordHash, ...view } = user;
  return view;
}

export type UserError = 'invalid' | 'email_taken' | 'not_found' | 'last_admin';

export interface CreateUserInput {
  email: string;
  name: string;
  role: ConsoleRole;
  /** When absent a random password is generated and returned once. */
  password?: string;
}

export async function createConsoleUser(
  actor: Actor,
  input: CreateUserInput,
): Promise<Result<{ user: ConsoleUserView; password: string }, UserError>> {
  const parsed = z
    .object({ email: userEmailSchema, name: userNameSchema, role: userRoleSchema, password: passwordSchema.optional() })
    .safeParse(input);
  if (!parsed.success) return fail('invalid', parsed.error.issues[0]!.message);
  const password = parsed.data.password ?? generatePassword();
  const database = await db();
  const existing = await database
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(sql`lower(${consoleUsers.email}) = ${parsed.data.email}`);
  if (existing.length > 0) return fail('email_taken', `Ya existe un usuario con el correo ${parsed.data.email}.`);
  const passwordHash = await hashPassword(password);
  const user = await database.transaction(async (tx) => {
    const [row] = await tx
      .insert(consoleUsers)
      .values({ email: parsed.data.email, name: parsed.data.name, role: parsed.data.role, passwordHash })
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
