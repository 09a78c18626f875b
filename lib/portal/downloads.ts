import type { PortalRole } from '@/db/schema';
import { plainText } from '@/lib/statements/download';
import type { Statement } from '@/lib/statements/statements';
import { currentPortalUser, type PortalUserSession } from './session';
import { portalStatement } from './statements';

// The portal's downloads (route handlers, which the pages' guard does not cover): the same
// checks as a page, answered as plain text a browser shows, and the statement looked up within the
// session's integration only.

export const PORTAL_DOWNLOAD_MESSAGES = {
  signedOut: 'Tu sesión del portal terminó. Vuelve a ingresar en /portal/ingresar.',
  pending: 'Antes de descargar termina de ingresar en /portal/ingresar.',
  forbidden: 'Tu rol no permite esta descarga: pide a un propietario de tu integración que cambie tu rol.',
  notFound: 'No existe ese estado de cuenta.',
} as const;

/** The session's user if it may download this (a signed-in session, no pending step, one of `roles`), else the answer. */
export async function portalDownloadUser(roles: readonly PortalRole[]): Promise<PortalUserSession | Response> {
  const user = await currentPortalUser();
  if (!user) return plainText(401, PORTAL_DOWNLOAD_MESSAGES.signedOut);
  if (user.pendingStep) return plainText(401, PORTAL_DOWNLOAD_MESSAGES.pending);
  if (!roles.includes(user.role)) return plainText(403, PORTAL_DOWNLOAD_MESSAGES.forbidden);
  return user;
}

/**
 * An issued statement of the session's integration for download, or the answer: an id that is not
 * a number, that no statement has, or that another integration's statement has all get the same 404.
 */
export async function portalStatementDownload(roles: readonly PortalRole[], params: Promise<{ id: string }>): Promise<{ statement: Statement; user: PortalUserSession } | Response> {
  const user = await portalDownloadUser(roles);
  if (user instanceof Response) return user;
  const statement = await portalStatement(user, (await params).id);
  if (!statement) return plainText(404, PORTAL_DOWNLOAD_MESSAGES.notFound);
  return { statement, user };
}
