import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetRequestForm } from './request-form';

export const metadata: Metadata = { title: 'Restablecer la contraseña' };

export default function PortalResetRequestPage() {
  return (
    <main className="login" id="contenido">
      <h1>¿Olvidaste tu contraseña?</h1>
      <p>Escribe el correo de tu cuenta del portal: te enviamos un enlace para elegir una contraseña nueva. Tu verificación en dos pasos no cambia.</p>
      <div className="card">
        <ResetRequestForm />
      </div>
      <p className="small">
        <Link href="/portal/ingresar">Volver a iniciar sesión</Link>
      </p>
    </main>
  );
}
