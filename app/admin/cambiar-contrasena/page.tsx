import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignOutButton } from '@/components/console/sign-out-button';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';
import { ChangePasswordForm } from '../(console)/cuenta/change-password-form';

export const metadata: Metadata = { title: 'Cambie su contraseña' };

// Outside the console's layout on purpose: a user whose password was set by someone else (an
// initial or reset password) reaches this page only, until they choose their own.
export default async function PendingPasswordChangePage() {
  const user = await requirePageUser('support', { allowPending: 'password_change' });
  if (user.pendingStep !== 'password_change') redirect('/admin/cuenta');
  return (
    <main className="login">
      <h1>Cambie su contraseña</h1>
      <p>
        Hola, {user.name}. La contraseña con la que entró la asignó otra persona: antes de usar la consola elija una que solo usted
        conozca.
      </p>
      <p className="small muted">Después de cambiarla vuelva a iniciar sesión con la nueva.</p>
      <div className="card">
        <ChangePasswordForm minLength={MIN_PASSWORD_LENGTH} />
      </div>
      <p className="small">
        <SignOutButton />
      </p>
    </main>
  );
}
