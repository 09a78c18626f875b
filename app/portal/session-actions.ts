'use server';

import { redirect } from 'next/navigation';
import { clearPortalSessionCookie, portalSessionIdOfRequest } from '@/lib/surfaces/portal/session';
import { endPortalSession } from '@/lib/flows/portal-identity/sessions';

// "Cerrar sesión" in the portal: the session's row is deleted (a copy of the cookie stops working
// on every instance) and the cookie with it. Open to any session, a half-signed one too.
export async function portalSignOutAction(): Promise<void> {
  const sessionId = await portalSessionIdOfRequest();
  if (sessionId) await endPortalSession(sessionId);
  await clearPortalSessionCookie();
  redirect('/portal/ingresar?motivo=salida');
}
