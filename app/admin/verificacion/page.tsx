import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignOutButton } from '@/components/console/sign-out-button';
import { SecondFactorForm } from '@/components/two-factor/second-factor-form';
import { pendingStepPageShows, requirePageUser, returnPathOf } from '@/lib/surfaces/console/session';
import { verifySecondFactorAction } from './actions';

export const metadata: Metadata = { title: 'Verificación en dos pasos' };

// Outside the console's layout on purpose: after the password, a user with two-factor sign-in
// reaches this page only, until they type a code (lib/flows/auth/session.ts, pending steps).
export default async function SecondFactorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support', { allowPending: 'second_factor' });
  if (!(await pendingStepPageShows(user, 'second_factor'))) redirect('/admin');
  return (
    <main className="login">
      <h1>Verificación en dos pasos</h1>
      <p>Hola, {user.name}. Para terminar de iniciar sesión escriba un código de verificación: el que muestra su aplicación de autenticación o, sin el teléfono, uno de sus códigos de recuperación.</p>
      <div className="card">
        <SecondFactorForm
          verify={verifySecondFactorAction}
          returnTo={returnPathOf(await searchParams)}
          enterLabel="Entrar a la consola"
          recoveryAdvice="Si perdió el teléfono, pida a un administrador que restablezca su verificación en dos pasos, o genere códigos nuevos en «Mi cuenta»."
        />
      </div>
      <p className="small">
        <SignOutButton />
      </p>
    </main>
  );
}
