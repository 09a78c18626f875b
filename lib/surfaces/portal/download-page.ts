import type { PortalUserSession } from './session';
import { portalNavItems } from './navigation';
import { PORTAL_ROLE_LABELS } from '@/lib/flows/portal-identity/roles';

// A refused or missing download of the portal (a route handler, outside the pages' layout): a small
// page with the portal's navigation for the session's role and what happened, not bare text, at
// the address asked for and with its status.

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

export function portalDownloadPage(status: 403 | 404 | 409, user: PortalUserSession, title: string, text: string): Response {
  const links = portalNavItems(user.role)
    .map((item) => `<li><a href="${escapeHtml(item.href)}">${escapeHtml(item.label)}</a></li>`)
    .join('');
  const html = `<!DOCTYPE html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} · Portal</title></head>
<body>
<header><p><a href="/portal">Portal · ${escapeHtml(user.integrationName)}</a> · ${escapeHtml(user.name)} (${escapeHtml(PORTAL_ROLE_LABELS[user.role])})</p>
<nav aria-label="Secciones del portal"><ul>${links}</ul></nav></header>
<main id="contenido"><h1>${escapeHtml(title)}</h1><p data-testid="portal-download-refusal">${escapeHtml(text)}</p><p><a href="/portal">Volver a Inicio</a></p></main>
</body>
</html>
`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}
