import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { Stat } from '@/components/console/stat';
import { formatQuetzales } from '@/lib/money';
import { portalHome } from '@/lib/portal/home';
import { PORTAL_ROLE_DESCRIPTIONS, PORTAL_ROLE_LABELS } from '@/lib/portal/roles';
import { requirePortalPage } from '@/lib/portal/session';

export const metadata: Metadata = { title: 'Inicio' };

// Inicio: the session's integration now. Every role sees it: a developer debugging a 402 needs
// the balance as much as billing does.
export default async function PortalHomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage();
  const [home, params] = await Promise.all([portalHome(user), searchParams]);
  const lookupsLeft = home.tariffCentavos > 0 ? Math.floor(home.balanceCentavos / home.tariffCentavos) : null;
  return (
    <>
      <PageHeader title={home.integrationName} description={`Tu rol: ${PORTAL_ROLE_LABELS[user.role]} (${PORTAL_ROLE_DESCRIPTIONS[user.role]}).`} />
      {params.bienvenida === '1' && (
        <p className="notice success" role="status">
          Bienvenido al portal, {user.name}: tu cuenta está lista.
        </p>
      )}
      {!home.active && (
        <p className="notice warn" role="status">
          Esta integración está desactivada: sus consultas se rechazan. Escribe al equipo del servicio para reactivarla.
        </p>
      )}
      <div className="grid grid-3">
        <Stat label="Saldo" testId="portal-balance">
          {formatQuetzales(home.balanceCentavos)}
        </Stat>
        <Stat label="Aviso de saldo bajo" testId="portal-low-balance">
          {home.lowBalanceCentavos === 0 ? 'Solo al agotarse' : `Por debajo de ${formatQuetzales(home.lowBalanceCentavos)}`}
        </Stat>
        <Stat label="Consultas de catálogo que cubre el saldo" testId="portal-lookups-left">
          {lookupsLeft === null ? '—' : lookupsLeft.toLocaleString('es-GT')}
        </Stat>
      </div>
      <section className="card" aria-labelledby="balance-title">
        <h2 id="balance-title">Saldo</h2>
        <p data-testid="portal-tariff">
          {home.tariffCentavos > 0
            ? `Las consultas de catálogo (CUI/NIT, RTU y omisos) se pagan del saldo, a ${formatQuetzales(home.tariffCentavos)} cada una. Sin saldo suficiente, responden 402 hasta la siguiente recarga.`
            : 'Las consultas de catálogo (CUI/NIT, RTU y omisos) no tienen costo para tu integración por ahora: su tarifa es Q 0.00.'}
        </p>
        <p className="small muted">
          {home.lowBalanceIsOwn ? 'El aviso de saldo bajo usa el umbral propio de tu integración.' : 'El aviso de saldo bajo usa el umbral predeterminado del servicio.'}{' '}
          Las recargas las hace el equipo del servicio: escríbele para recargar.
        </p>
      </section>
    </>
  );
}
