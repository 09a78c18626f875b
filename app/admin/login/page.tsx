import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentConsoleUser, returnPathOf } from '@/lib/surfaces/console/session';
import { signInRefusalOf } from '@/lib/surfaces/console/sign-in';
import { consoleSignInChoices } from '@/lib/surfaces/console/sign-in-choices';
import { ProviderSignIn } from './provider-sign-in';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Iniciar sesión' };

const REASONS: Record<string, { tone: 'info' | 'success'; text: string }> = {
  sesion: { tone: 'info', text: 'Su sesión terminó o su cuenta cambió: vuelva a iniciar sesión.' },
  salida: { tone: 'success', text: 'Cerró sesión. Hasta pronto.' },
  'clave-cambiada': { tone: 'success', text: 'Contraseña cambiada. Inicie sesión con la nueva contraseña.' },
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Only a console page of this site, never a link elsewhere (lib/flows/auth/return-path.ts).
  const returnTo = returnPathOf(params);
  if (await currentConsoleUser()) redirect(returnTo);
  const reason = typeof params.motivo === 'string' && Object.hasOwn(REASONS, params.motivo) ? REASONS[params.motivo] : undefined;
  // next-auth sends refusals here (the form shows them inline when JavaScript runs). Only our own
  // codes become their text; anything else in the link gets one fixed sentence, never itself.
  const signInError = signInRefusalOf(params);
  const choices = consoleSignInChoices();
  return (
    <main className="login">
      <h1>Consola de consultas de contribuyentes</h1>
      <p className="muted">Acceso para el personal de administración y de soporte.</p>
      {reason && (
        <p className={`notice ${reason.tone}`} role="status">
          {reason.text}
        </p>
      )}
      {signInError && (
        <p className="notice error" role="alert">
          {signInError}
        </p>
      )}
      {choices.provider && (
        <div className="card stack">
          <ProviderSignIn providerId={choices.provider.id} name={choices.provider.name} returnTo={returnTo} />
        </div>
      )}
      <div className="card stack">
        {choices.provider && (
          <h2>{choices.passwords === 'break_glass' ? 'Cuentas de emergencia' : 'Con correo y contraseña'}</h2>
        )}
        {choices.provider && choices.passwords === 'break_glass' && (
          <p className="muted">Solo para las cuentas locales que el operador reservó para cuando el proveedor de identidad no responde.</p>
        )}
        <SignInForm returnTo={returnTo} />
      </div>
    </main>
  );
}
