import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetRequestForm } from './request-form';

export const metadata: Metadata = { title: 'Restablecer la contraseña' };

export default function PortalResetRequestPage() {
  return (
    <main className="login" id="contenido">
      <h1>¿Olvidó su contraseña?</h1>
      <p>Escriba el correo de su cuenta del portal: le enviamos un enlace para elegir una contraseña nueva. Su verificación en dos pasos no cambia.</p>
      <div className="card">
        <ResetRequestForm />
      </div>
      <p className="small">
        <Link href="/portal/ingresar">Volver a iniciar sesión</Link>
      </p>
    </main>
  );
}
