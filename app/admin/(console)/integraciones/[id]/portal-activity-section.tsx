import Link from 'next/link';
import { EmptyState } from '@/components/console/page-header';
import { listAuditPage } from '@/lib/surfaces/console/audit';
import { describeAuditActor } from '@/lib/presentation/audit-labels';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { AUDIT_ACTION_LABELS } from '@/lib/presentation/labels';

/** The portal's latest changes shown here; the rest, with their values, on the audit page. */
export const PORTAL_ACTIVITY_SHOWN = 10;

/** The audit page's filters for what the integrator's own people changed on this integration. */
export function portalActivityFilters(integrationId: number) {
  return { actor: 'integrator', targetType: 'integration', targetId: String(integrationId) } as const;
}

export function portalActivityAuditPath(integrationId: number): string {
  const filters = portalActivityFilters(integrationId);
  return `/admin/auditoria?${new URLSearchParams({ tipo: filters.targetType, id: filters.targetId, quien: filters.actor })}`;
}

/**
 * "Actividad del portal": what the integrator's own people did to the
 * integration from the portal (tokens, allow-list, invitations), newest first, read from the audit
 * log as the audit page reads it (the same service and filters, the integration's index). Support
 * reads it here; the full list, with each change's values, is the administrators' audit page.
 */
export async function PortalActivitySection({ integrationId, isAdmin }: { integrationId: number; isAdmin: boolean }) {
  const { rows, older } = await listAuditPage(portalActivityFilters(integrationId), undefined, PORTAL_ACTIVITY_SHOWN);
  return (
    <section className="card" aria-labelledby="portal-activity-title" data-testid="portal-activity">
      <h2 id="portal-activity-title">Actividad del portal</h2>
      <p className="small muted">Lo que las personas del integrador cambiaron desde el portal, de lo más reciente a lo más antiguo.</p>
      {rows.length === 0 ? (
        <EmptyState title="Nadie ha cambiado nada desde el portal todavía." />
      ) : (
        <div className="table-wrap" role="region" aria-label="Actividad del portal" tabIndex={0}>
          <table className="data stacked" data-testid="portal-activity-list">
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Quién</th>
                <th>Cambio</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id}>
                  <td className="nowrap" data-label="Fecha">
                    {formatDateTime(entry.createdAt)}
                  </td>
                  <td className="break-anywhere" data-label="Quién">
                    {describeAuditActor(entry.actor, new Map())}
                  </td>
                  <td data-label="Cambio">{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {isAdmin && rows.length > 0 && (
        <p className="small">
          <Link href={portalActivityAuditPath(integrationId)}>{older ? 'Ver toda la actividad del portal en Auditoría' : 'Ver estos cambios con sus valores en Auditoría'}</Link>
        </p>
      )}
    </section>
  );
}
