import type { PortalRole } from '@/db/schema';
import { plainText } from '@/lib/platform/http/plain-text';
import { portalDownloadPage } from './download-page';
import { PORTAL_DOWNLOAD_REFUSAL_TITLE, portalRefusalText } from './refusals';
import type { Statement } from '@/lib/flows/statements/statements';
import { currentPortalUser, type PortalUserSession } from './session';
import { portalStatement } from './statements';
import type { CertifiedInvoice } from '@/lib/core/invoices/documents';
import { portalCertifiedInvoice } from './invoices';

// The portal's downloads (route handlers, which the pages' guard does not cover): the same
// checks as a page; without a session plain text a browser shows, a refused role or a missing
// file a page with the portal's navigation (lib/surfaces/portal/download-page.ts); the statement looked up
// within the session's integration only.

export const PORTAL_DOWNLOAD_MESSAGES = {
  signedOut: 'Su sesión del portal terminó. Vuelva a ingresar en /portal/ingresar.',
  pending: 'Antes de descargar termina de ingresar en /portal/ingresar.',
  notFound: 'No existe ese estado de cuenta.',
  notFoundHint: 'Revise el enlace: los estados de cuenta de su integración están en Estados de cuenta.',
  slipNotFoundHint: 'Revise el enlace: las boletas de su integración están en Recargas.',
  jobNotFoundHint: 'Revise el enlace: los lotes de su integración están en Lotes.',
  invoiceNotFound: 'No existe esa factura.',
  invoiceNotFoundHint: 'Revise el enlace: las facturas de su integración están en Facturas. Una factura se descarga cuando ya está certificada.',
} as const;

/** The session's user if it may download this (a signed-in session, no pending step, one of `roles`), else the answer. */
export async function portalDownloadUser(roles: readonly PortalRole[]): Promise<PortalUserSession | Response> {
  const user = await currentPortalUser();
  if (!user) return plainText(401, PORTAL_DOWNLOAD_MESSAGES.signedOut);
  if (user.pendingStep) return plainText(401, PORTAL_DOWNLOAD_MESSAGES.pending);
  if (!roles.includes(user.role)) return portalDownloadPage(403, user, PORTAL_DOWNLOAD_REFUSAL_TITLE, portalRefusalText('descarga', user.integrationName, user.role, roles));
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
  if (!statement) return portalDownloadPage(404, user, PORTAL_DOWNLOAD_MESSAGES.notFound, PORTAL_DOWNLOAD_MESSAGES.notFoundHint);
  return { statement, user };
}

/**
 * A certified invoice of the session's integration for download, or the answer: an id that is not a
 * number, that no invoice has, that is not certified yet, or that another integration's invoice has
 * all get the same 404.
 */
export async function portalInvoiceDownload(roles: readonly PortalRole[], params: Promise<{ id: string }>): Promise<{ invoice: CertifiedInvoice; user: PortalUserSession } | Response> {
  const user = await portalDownloadUser(roles);
  if (user instanceof Response) return user;
  const invoice = await portalCertifiedInvoice(user, (await params).id);
  if (!invoice) return portalInvoiceMissing(user);
  return { invoice, user };
}

/** The answer for an invoice that cannot be downloaded: the same for every reason. */
export function portalInvoiceMissing(user: PortalUserSession): Response {
  return portalDownloadPage(404, user, PORTAL_DOWNLOAD_MESSAGES.invoiceNotFound, PORTAL_DOWNLOAD_MESSAGES.invoiceNotFoundHint);
}
