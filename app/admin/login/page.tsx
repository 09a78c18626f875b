import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentConsoleUser } from '@/lib/auth/session';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Iniciar sesión' };

const REASONS: Record<string, { tone: 'info' | 'success'; text: string }> = {
  sesion: { tone: 'info', text: 'Inicia sesión para entrar a la consola. Si ya habías entrado, tu sesión terminó o tu cuenta cambió.' },
  'clave-cambiada': { tone: 'success', text: 'Contraseña cambiada. Inicia sesión con la nueva contraseña.' },
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  if (await currentConsoleUser()) redirect('/admin');
  const reason = typeof params.motivo === 'string' ? REASONS[params.motivo] : undefined;
  // next-auth sends errors it raised itself (not ours, which the form shows inline) here.
  const nextAuthError = typeof params.error === 'string' ? params.error : undefined;
  return (
    <main className="login">
      <h1>Consola de consultas de contribuyentes</h1>
      <p className="muted">Acceso para el personal de administración y de soporte.</p>
      {reason && <p className={`notice ${reason.tone}`}>{reason.text}</p>}
      {nextAuthError && <p className="notice error">No se pudo iniciar sesión ({nextAuthError}). Vuelve a intentarlo.</p>}
      <div className="card">
        <SignInForm />
      </div>
    </main>
  );
}
