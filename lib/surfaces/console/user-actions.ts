// «Usuarios»'s changes (app/admin/(console)/usuarios/actions.ts is their entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { endAllSessions } from '@/lib/flows/auth/sessions';
import { ROLE_LABELS } from '@/lib/presentation/labels';
import { resetTwoFactor } from '@/lib/flows/two-factor/service';
import { booleanField, idField } from '@/lib/presentation/form-fields';
import { consoleSsoSettings } from '@/lib/flows/auth/sso-settings';
import {
  allowIdentityProviderLink,
  createConsoleUser,
  resetConsoleUserPassword,
  setConsoleUserActive,
  setConsoleUserRole,
  userEmailSchema,
  userNameSchema,
  userRoleSchema,
} from '@/lib/flows/auth/users';

// Console users are managed by admins only; each change is audited by lib/flows/auth/users.ts.

const roleField = z.enum(userRoleSchema.options, { error: 'Elija un rol: administrador o soporte.' });

export const createUserAction = consoleAction(
  { role: 'admin', schema: z.object({ email: userEmailSchema, name: userNameSchema, role: roleField }) },
  async (input, user) => {
    const result = await createConsoleUser(user.actor, input);
    if (result.ok) revalidatePath('/admin/usuarios');
    return fromResult(result, ({ user: created, password }) => ({
      message: `Usuario ${created.email} creado.`,
      data: { email: created.email, password },
    }));
  },
);

export const setUserRoleAction = consoleAction(
  { role: 'admin', schema: z.object({ userId: idField, role: roleField }) },
  async ({ userId, role }, user) => {
    const result = await setConsoleUserRole(user.actor, userId, role);
    if (result.ok) revalidatePath('/admin/usuarios');
    return fromResult(result, (updated) => ({ message: `${updated.email} ahora es ${ROLE_LABELS[updated.role].toLowerCase()}.`, data: undefined }));
  },
);

export const setUserActiveAction = consoleAction(
  { role: 'admin', schema: z.object({ userId: idField, active: booleanField }) },
  async ({ userId, active }, user) => {
    const result = await setConsoleUserActive(user.actor, userId, active);
    if (result.ok) revalidatePath('/admin/usuarios');
    return fromResult(result, (updated) => ({
      message: updated.active ? `${updated.email} puede volver a entrar.` : `${updated.email} ya no puede entrar; sus sesiones abiertas terminaron.`,
      data: undefined,
    }));
  },
);

export const resetUserPasswordAction = consoleAction({ role: 'admin', schema: z.object({ userId: idField }) }, async ({ userId }, user) => {
  const result = await resetConsoleUserPassword(user.actor, userId);
  return fromResult(result, ({ user: updated, password }) => ({
    message: `Contraseña de ${updated.email} restablecida; sus sesiones abiertas terminaron.`,
    data: { email: updated.email, password },
  }));
});

/** Lets a local account be taken over by the identity provider's user with its e-mail (docs/sso.md): audited. */
export const allowIdentityProviderLinkAction = consoleAction({ role: 'admin', schema: z.object({ userId: idField }) }, async ({ userId }, user) => {
  const result = await allowIdentityProviderLink(user.actor, userId, consoleSsoSettings().CONSOLE_BREAK_GLASS_EMAILS);
  if (result.ok) revalidatePath('/admin/usuarios');
  return fromResult(result, (updated) => ({
    message: `${updated.email} entrará con el proveedor de identidad; su contraseña ya no sirve y sus sesiones terminaron.`,
    data: undefined,
  }));
});

/** Signs a user out of every browser at once (a lost laptop, someone leaving): audited with how many ended. */
export const endUserSessionsAction = consoleAction({ role: 'admin', schema: z.object({ userId: idField }) }, async ({ userId }, user) => {
  const ended = await endAllSessions(user.actor, userId);
  revalidatePath('/admin/usuarios');
  return {
    ok: true,
    message: ended === 1 ? 'Se cerró 1 sesión; esa persona debe volver a iniciar sesión.' : `Se cerraron ${ended} sesiones; esa persona debe volver a iniciar sesión.`,
    data: undefined,
  };
});

/**
 * Removes a user's second factor (a lost or replaced phone): their sessions end, and they sign in
 * with the password and enrol again (required of administrators in production). Audited.
 */
export const resetUserTwoFactorAction = consoleAction({ role: 'admin', schema: z.object({ userId: idField }) }, async ({ userId }, user) => {
  const result = await resetTwoFactor(user.actor, userId);
  if (result.ok) revalidatePath('/admin/usuarios');
  return fromResult(result, () => ({
    message: 'Verificación en dos pasos restablecida; sus sesiones terminaron. Al entrar de nuevo podrá activarla con su teléfono nuevo.',
    data: undefined,
  }));
});
