import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { NewIntegrationForm } from './new-integration-form';

export const metadata: Metadata = { title: 'Nueva integración' };

export default async function NewIntegrationPage() {
  await requirePageUser('admin');
  return (
    <>
      <PageHeader
        title="Nueva integración"
        description="El token se muestra una sola vez al crearla; la consola solo guarda su huella (hash)."
        back={{ href: '/admin/integraciones', label: 'Integraciones' }}
      />
      <div className="card" style={{ maxWidth: 720 }}>
        <NewIntegrationForm />
      </div>
    </>
  );
}
