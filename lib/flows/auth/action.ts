import { z } from 'zod';
import { logger } from '@/lib/platform/logging/logger';
import { describeActor, type Actor } from '@/lib/core/audit/audit';
import { asSubmission, firstSubmissionAnswer, releaseSubmission, rememberSubmissionAnswer, SubmissionAlreadyMade } from '@/lib/core/submissions/claim';
import { once, submissionKey } from './submissions';

/** What every console server action answers: a message for the form, field errors, or data. */
export type ActionResult<T = undefined> =
  | { ok: true; message?: string; data: T }
  | { ok: false; message: string; fieldErrors?: Record<string, string> };

export const ACTION_MESSAGES = {
  signedOut: 'Su sesión terminó o ya no es válida. Vuelva a iniciar sesión.',
  forbidden: 'Su rol solo permite consultar: esta acción requiere un administrador.',
  passwordChangeRequired: 'Antes de seguir debe cambiar la contraseña que le asignaron: vaya a «Cambiar contraseña».',
  secondFactorRequired: 'Antes de seguir escriba el código de verificación de su aplicación: vuelva a cargar la página.',
  enrolmentRequired: 'Antes de seguir active la verificación en dos pasos: vuelva a cargar la página.',
  invalid: 'Revise los campos marcados en rojo y vuelva a enviar.',
  unexpected: 'No se pudo completar la acción por un error inesperado. Intente de nuevo; si se repite, avise al equipo técnico.',
} as const;


/** How a kind of caller (the console's staff, the portal's people) is let through guardedAction. */
export interface ActionGuard<Schema extends z.ZodType, User extends { id: number; actor: Actor }> {
  /** The logger's component for unexpected errors. */
  component: string;
  /** The signed-in user as the database says now; null: signed out. */
  resolve: () => Promise<User | null>;
  /** Why this user may not use this action (a pending step, a role), or null. */
  refusal: (user: User) => string | null;
  schema: Schema;
}

/**
 * A server action behind a guard: the session resolved (signed out: refused), the guard's checks,
 * the input validated with the schema, each form's sending made once (lib/core/submissions), and
 * unexpected errors logged and answered with a message that reveals nothing internal.
 */
export function guardedAction<Schema extends z.ZodType, User extends { id: number; actor: Actor }, T>(
  guard: ActionGuard<Schema, User>,
  handler: (input: z.infer<Schema>, user: User) => Promise<ActionResult<T>>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (input: unknown) => {
    const user = await guard.resolve();
    if (!user) return { ok: false, message: ACTION_MESSAGES.signedOut };
    const refused = guard.refusal(user);
    if (refused) return { ok: false, message: refused };
    const parsed = guard.schema.safeParse(input);
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? '')] ??= issue.message;
      return { ok: false, message: ACTION_MESSAGES.invalid, fieldErrors };
    }
    // Keys are drawn per form, so the user and the key name one submission: remembered in this
    // process for a resend to the same instance (it gets the same answer, a new token included),
    // and claimed in PostgreSQL with the change itself for a resend to any other (lib/core/submissions).
    const key = submissionKey(input);
    const actor = describeActor(user.actor);
    return once(actor, key, (answer) => answer.ok, async () => {
      try {
        const answer = await asSubmission(actor, key, () => handler(parsed.data, user));
        if (key !== undefined) {
          if (answer.ok) await rememberSubmissionAnswer(actor, key, answer.message ?? 'Cambio guardado.');
          else await releaseSubmission(actor, key);
        }
        return answer;
      } catch (error) {
        if (error instanceof SubmissionAlreadyMade) {
          const first = await firstSubmissionAnswer(actor, error.key);
          return { ok: false, message: alreadyMadeMessage(first) } as ActionResult<T>;
        }
        // A redirect (or notFound) from the handler is Next's control flow, not a failure.
        if (isNavigation(error)) throw error;
        logger(guard.component).error({ err: error, userId: user.id }, `${guard.component} action failed`);
        return { ok: false, message: ACTION_MESSAGES.unexpected } as ActionResult<T>;
      }
    });
  };
}

/** Next's redirect() and notFound() throw errors carrying a digest that says so. */
function isNavigation(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' && (digest.startsWith('NEXT_REDIRECT') || digest.startsWith('NEXT_HTTP_ERROR_FALLBACK'));
}

/** What a second sending of a form that already made its change reads: nothing was done again. */
export function alreadyMadeMessage(firstAnswer: string | undefined): string {
  return firstAnswer
    ? `Este envío ya se había procesado y no se repitió. Su resultado: ${firstAnswer}`
    : 'Este envío ya se había procesado y no se repitió: recarga la página para ver su resultado.';
}

/** A service Result turned into an action answer, with the success message for the form. */
export function fromResult<T, R>(
  result: { ok: true; value: T } | { ok: false; error: { message: string } },
  onSuccess: (value: T) => { message?: string; data: R },
): ActionResult<R> {
  return result.ok ? { ok: true, ...onSuccess(result.value) } : { ok: false, message: result.error.message };
}
