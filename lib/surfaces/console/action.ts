// The console's one door for server actions (app/admin's actions.ts files): the session and its
// role, then lib/flows/auth/action.ts's guardedAction (the input's schema, a sending taken once, an
// unexpected error said without detail), as the portal's is lib/surfaces/portal/action.ts.
import { z } from 'zod';
import type { ConsoleRole } from '@/db/schema';
import { ACTION_MESSAGES, guardedAction, type ActionResult } from '@/lib/flows/auth/action';
import { currentConsoleUser, hasRole, type ConsoleUserSession, type PendingStep } from '@/lib/flows/auth/session';

const PENDING_STEP_MESSAGES: Record<PendingStep, string> = {
  second_factor: ACTION_MESSAGES.secondFactorRequired,
  password_change: ACTION_MESSAGES.passwordChangeRequired,
  two_factor_enrolment: ACTION_MESSAGES.enrolmentRequired,
};

interface ActionOptions<Schema extends z.ZodType> {
  /** The lowest role allowed: 'admin' for every change; 'support' for reads. */
  role: ConsoleRole;
  schema: Schema;
  /**
   * The one pending step (lib/flows/auth/session.ts) this action takes: the password change, the
   * second-factor check, the enrolment. Every other action is closed to a session with a step pending.
   */
  allowPending?: PendingStep;
}

/**
 * The one door for console server actions: it resolves the session against the database, checks
 * the role, validates the input with the action's schema, and turns unexpected errors into a
 * message that reveals nothing internal. Server actions are public HTTP endpoints; hiding a
 * button is not authorization, this is.
 */
export function consoleAction<Schema extends z.ZodType, T>(
  options: ActionOptions<Schema>,
  handler: (input: z.infer<Schema>, user: ConsoleUserSession) => Promise<ActionResult<T>>,
): (input: unknown) => Promise<ActionResult<T>> {
  return guardedAction(
    {
      component: 'console',
      resolve: currentConsoleUser,
      refusal: (user) => {
        if (user.pendingStep && user.pendingStep !== options.allowPending) return PENDING_STEP_MESSAGES[user.pendingStep];
        if (!hasRole(user, options.role)) return ACTION_MESSAGES.forbidden;
        return null;
      },
      schema: options.schema,
    },
    handler,
  );
}

/** What a console page's actions answer and say, from the surface its pages read through. */
export { ACTION_MESSAGES, fromResult, type ActionResult } from '@/lib/flows/auth/action';
