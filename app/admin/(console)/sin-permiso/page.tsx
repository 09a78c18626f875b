import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/surfaces/console/session';

export default async function ForbiddenPage() {
  await requirePageUser();
  return (
    <>
      <PageHeader title="Sin permiso" />
      <div className="card">
        <p>Esta sección es solo para administradores. Su rol de soporte permite consultar integraciones, registros de consultas y el panel.</p>
        <p>
          Si necesita hacer un cambio, pídaselo a un administrador. <Link href="/admin">Volver al panel</Link>
        </p>
      </div>
    </>
  );
}
