import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/auth/session';
import { ROLE_LABELS } from '@/lib/format/labels';
import { MIN_PASSWORD_LENGTH } from '@/lib/security/passwords';
import { ChangePasswordForm } from './change-password-form';

export const metadata: Metadata = { title: 'Mi cuenta' };

export default async function AccountPage() {
  const user = await requirePageUser('support');
  return (
    <>
      <PageHeader title="Mi cuenta" description={`${user.name} · ${user.email} · ${ROLE_LABELS[user.role]}`} />
      <section className="card" style={{ maxWidth: 520 }}>
        <h2>Cambiar contraseña</h2>
        <p className="small muted">Al cambiarla se cierran todas tus sesiones, también esta.</p>
        <ChangePasswordForm minLength={MIN_PASSWORD_LENGTH} />
      </section>
    </>
  );
}
