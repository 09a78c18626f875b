// The console's page guard: what every page of app/admin calls first. The session itself (who is
// signed in, their role, a step pending) is lib/flows/auth/session.ts's; where a page sends a
// visitor who may not read it is this surface's.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ConsoleRole } from '@/db/schema';
import { CONSOLE_PATH_HEADER, DEFAULT_RETURN_PATH, RETURN_PATH_PARAM, safeReturnPath, signInPath } from '@/lib/flows/auth/return-path';
import { currentConsoleUser, hasRole, PENDING_STEP_PATHS, type ConsoleUserSession, type PendingStep } from '@/lib/flows/auth/session';
import { CONSOLE_SESSION_COOKIE } from '@/lib/flows/auth/session-cookie-name';
import { renderingAfterOwnAction } from '@/lib/flows/auth/session-cookie';
import { requestClientIp } from '@/lib/core/limits/client-ip';
import { env } from '@/lib/platform/settings/env';

/**
 * For pages: no valid session goes to sign-in (saying the session ended only when the browser
 * still held one: a first visit is just asked to sign in), which then returns to the page asked
 * for; a pending step goes to the page that takes it (unless this page is that one,
 * `allowPending`); a role too low goes to "no permission".
 */
export async function requirePageUser(required: ConsoleRole = 'support', { allowPending }: { allowPending?: PendingStep } = {}): Promise<ConsoleUserSession> {
  const user = await currentConsoleUser();
  if (!user) {
    const heldSession = (await cookies()).getAll().some((cookie) => cookie.name.includes(CONSOLE_SESSION_COOKIE));
    // Sign-in brings the visitor back to the page asked for (a deep link), not to the Panel.
    redirect(signInPath((await headers()).get(CONSOLE_PATH_HEADER), heldSession ? 'sesion' : undefined));
  }
  if (user.pendingStep && user.pendingStep !== allowPending) redirect(pendingStepPath(user.pendingStep, (await headers()).get(CONSOLE_PATH_HEADER)));
  if (!hasRole(user, required)) redirect('/admin/sin-permiso');
  return user;
}

/**
 * The page of a pending step; the code asked after the password remembers the page the user was
 * going to (a deep link), so typing it opens that page rather than the Panel.
 */
function pendingStepPath(step: PendingStep, requested: string | null): string {
  const back = step === 'second_factor' ? safeReturnPath(requested) : undefined;
  if (!back || back === DEFAULT_RETURN_PATH || back.startsWith(PENDING_STEP_PATHS.second_factor)) return PENDING_STEP_PATHS[step];
  return `${PENDING_STEP_PATHS[step]}?${new URLSearchParams({ [RETURN_PATH_PARAM]: back })}`;
}

/**
 * Whether the page of a pending step (the second factor, a required enrolment) still shows: while
 * the step is pending, and in the answer to its own action (which renders the page again before the
 * browser moves on: lib/flows/auth/session-cookie.ts).
 */
export async function pendingStepPageShows(user: ConsoleUserSession, step: PendingStep): Promise<boolean> {
  return user.pendingStep === step || (await renderingAfterOwnAction());
}

/** Where a page of the sign-in opens once done: the console page the address asked for, or the Panel. */
export function returnPathOf(params: Record<string, string | string[] | undefined>): string {
  return safeReturnPath(params[RETURN_PATH_PARAM]) ?? DEFAULT_RETURN_PATH;
}

/** The client's address as the sign-in throttle sees it (wrong passwords and codes are counted per address too). */
export async function consoleClientIp(): Promise<string> {
  const requestHeaders = await headers();
  return requestClientIp((name) => requestHeaders.get(name), env());
}

/** The signed-in console user as pages and their layouts read it. */
export { consoleUserWithAccess, currentConsoleUser, hasRole, type ConsoleUserSession } from '@/lib/flows/auth/session';
