import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SecondFactorForm } from '@/components/two-factor/second-factor-form';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { portalRenderingAfterOwnAction, portalReturnPathOrHome } from '@/lib/surfaces/portal/sign-in';
import { PortalSignOutButton } from '../sign-out-button';
import { verifyPortalSecondFactorAction } from './actions';

export const metadata: Metadata = { title: 'Verificación en dos pasos' };

// Outside the signed-in layout on purpose: after the password, a user with two-factor sign-in
// reaches this page only, until they type a code.
export default async function PortalSecondFactorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(undefined, { allowPending: 'second_factor' });
  if (user.pendingStep !== 'second_factor' && !(await portalRenderingAfterOwnAction())) redirect('/portal');
  return (
    <main className="login" id="contenido">
      <h1>Verificación en dos pasos</h1>
      <p>
        Hola, {user.name}. Para terminar de iniciar sesión escriba un código de verificación: el que muestra su aplicación de autenticación o, sin el teléfono, uno de
        sus códigos de recuperación.
      </p>
      <div className="card">
        <SecondFactorForm
          verify={verifyPortalSecondFactorAction}
          returnTo={portalReturnPathOrHome(await searchParams)}
          enterLabel="Entrar al portal"
          recoveryAdvice="Genere códigos nuevos en «Mi cuenta» si le quedan pocos; si perdió el teléfono, pida a un propietario de su integración o al equipo del servicio que restablezcan su verificación."
        />
      </div>
      <PortalSignOutButton />
    </main>
  );
}
