import type { Metadata } from 'next';
import { SessionsList } from '@/components/account/sessions-list';
import { PageHeader } from '@/components/console/page-header';
import { TwoFactorSection } from '@/components/two-factor/section';
import { PORTAL_ROLE_LABELS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { portalAccount } from '@/lib/surfaces/portal/account';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';
import { env } from '@/lib/platform/settings/env';
import { endOwnPortalSessionAction } from './actions';
import { PortalPasswordForm } from './password-form';
import { PORTAL_PLACE, PORTAL_TWO_FACTOR_ACTIONS } from './two-factor';

export const metadata: Metadata = { title: 'Mi cuenta' };

export default async function PortalAccountPage() {
  const user = await requirePortalPage();
  const { sessions, twoFactor, twoFactorRequired, sessionHours } = await portalAccount(user);
  return (
    <>
      <PageHeader title="Mi cuenta" description={`${user.name} · ${user.email} · ${PORTAL_ROLE_LABELS[user.role]} de «${user.integrationName}»`} />
      <section className="card" style={{ maxWidth: 520 }} aria-labelledby="password-heading">
        <h2 id="password-heading">Cambiar contraseña</h2>
        <p className="small muted">Al cambiarla se cierran todas sus sesiones, también esta.</p>
        <PortalPasswordForm minLength={MIN_PASSWORD_LENGTH} />
      </section>
      <section className="card" style={{ maxWidth: 520 }} aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading">Verificación en dos pasos</h2>
        <TwoFactorSection
          enrolled={twoFactor.enrolled}
          recoveryCodesLeft={twoFactor.recoveryCodesLeft}
          required={twoFactorRequired}
          requiredNote="Es obligatoria para su rol."
          actions={PORTAL_TWO_FACTOR_ACTIONS}
          place={PORTAL_PLACE}
          serviceName={env().SERVICE_NAME}
        />
      </section>
      <section className="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sesiones activas</h2>
        <p className="small muted">Cada navegador donde inició sesión en las últimas {sessionHours} horas. Si no reconoce alguna, ciérrela y cambie su contraseña.</p>
        <SessionsList sessions={sessions} endSession={endOwnPortalSessionAction} />
      </section>
    </>
  );
}
