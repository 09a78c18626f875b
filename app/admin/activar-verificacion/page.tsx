import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignOutButton } from '@/components/console/sign-out-button';
import { pendingStepPageShows, requirePageUser } from '@/lib/surfaces/console/session';
import { env } from '@/lib/platform/settings/env';
import { RequiredEnrolment } from './required-enrolment';

export const metadata: Metadata = { title: 'Active la verificación en dos pasos' };

// Outside the console's layout on purpose: an administrator without two-factor sign-in, where it
// is required (production, CONSOLE_TWO_FACTOR_REQUIRED), reaches this page only until enrolled.
export default async function RequiredEnrolmentPage() {
  const user = await requirePageUser('support', { allowPending: 'two_factor_enrolment' });
  if (!(await pendingStepPageShows(user, 'two_factor_enrolment'))) redirect('/admin/cuenta');
  return (
    <main className="login">
      <h1>Active la verificación en dos pasos</h1>
      <p>
        Hola, {user.name}. Los administradores recargan saldos y cambian tarifas: además de la contraseña deben entrar con un código de su
        teléfono. Actívela para usar la consola.
      </p>
      <div className="card">
        <RequiredEnrolment serviceName={env().SERVICE_NAME} />
      </div>
      <p className="small">
        <SignOutButton />
      </p>
    </main>
  );
}
