'use server';

import { redirect } from 'next/navigation';
import { endPortalSessionOfRequest } from '@/lib/surfaces/portal/sign-in';

// "Cerrar sesión" in the portal: the session's row is deleted (a copy of the cookie stops working
// on every instance) and the cookie with it. Open to any session, a half-signed one too.
export async function portalSignOutAction(): Promise<void> {
  await endPortalSessionOfRequest();
  redirect('/portal/ingresar?motivo=salida');
}
