import type { z } from 'zod';
import type { PortalRole } from '@/db/schema';
import { guardedAction, type ActionResult } from '@/lib/flows/auth/action';
import { currentPortalUser, type PortalPendingStep, type PortalUserSession } from './session';

export const PORTAL_ACTION_MESSAGES = {
  forbidden: 'Su rol no permite esta acción: la hace un propietario de la integración.',
  secondFactorRequired: 'Antes de seguir escriba el código de verificación de su aplicación: vuelva a cargar la página.',
  enrolmentRequired: 'Antes de seguir active la verificación en dos pasos: vuelva a cargar la página.',
} as const;

const PENDING_STEP_MESSAGES: Record<PortalPendingStep, string> = {
  second_factor: PORTAL_ACTION_MESSAGES.secondFactorRequired,
  two_factor_enrolment: PORTAL_ACTION_MESSAGES.enrolmentRequired,
};

interface PortalActionOptions<Schema extends z.ZodType> {
  /** The roles allowed; every role when absent. */
  roles?: readonly PortalRole[];
  schema: Schema;
  /** The one pending step this action takes (the code after the password, a required enrolment). */
  allowPending?: PortalPendingStep;
}

/**
 * The one door for the portal's server actions, like the console's: the portal session resolved
 * against the database (a console session is no session here), the pending step and the role
 * checked, the input validated, each sending made once. The handler gets the session, whose
 * integration is the only one it may read or change: an id in the input names an object that must
 * belong to it, and one that does not is answered as not found.
 */
export function portalAction<Schema extends z.ZodType, T>(
  options: PortalActionOptions<Schema>,
  handler: (input: z.infer<Schema>, user: PortalUserSession) => Promise<ActionResult<T>>,
): (input: unknown) => Promise<ActionResult<T>> {
  return guardedAction(
    {
      component: 'portal',
      resolve: currentPortalUser,
      refusal: (user) => {
        if (user.pendingStep && user.pendingStep !== options.allowPending) return PENDING_STEP_MESSAGES[user.pendingStep];
        if (options.roles && !options.roles.includes(user.role)) return PORTAL_ACTION_MESSAGES.forbidden;
        return null;
      },
      schema: options.schema,
    },
    handler,
  );
}

/** What a portal page's actions answer, from the surface its pages read through. */
export { ACTION_MESSAGES, fromResult, type ActionResult } from '@/lib/flows/auth/action';
