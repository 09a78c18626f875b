import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/auth/session';
import { auditChanges, listAuditPage, type AuditFilters } from '@/lib/console/audit';
import { AUDIT_ACTION_LABELS } from '@/lib/format/labels';
import { formatDateTime } from '@/lib/format/guatemala-time';

export const metadata: Metadata = { title: 'Auditoría' };

const TARGET_LABELS = { integration: 'Integración', console_user: 'Usuario' } as const;

// Centavos are shown as quetzales; everything else as JSON.
function formatValue(field: string, value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'number' && /Centavos$/.test(field)) {
    const sign = value < 0 ? '-' : '';
    return `${sign}Q ${(Math.abs(value) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  }
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('admin');
  const params = await searchParams;
  const filters: AuditFilters = {
    targetType: params.tipo === 'integration' || params.tipo === 'console_user' ? params.tipo : undefined,
    targetId: typeof params.id === 'string' && /^\d+$/.test(params.id) ? params.id : undefined,
  };
  const after = typeof params.despues === 'string' ? params.despues : undefined;
  const page = await listAuditPage(filters, after);
  const base = new URLSearchParams();
  if (filters.targetType) base.set('tipo', filters.targetType);
  if (filters.targetId) base.set('id', filters.targetId);

  return (
    <>
      <PageHeader
        title="Auditoría"
        description="Cada cambio a integraciones, consultas habilitadas, tarifas, saldos, tokens y usuarios: quién, cuándo, antes y después."
      />
      <form className="card filters" action="/admin/auditoria" aria-label="Filtros">
        <div className="field">
          <label htmlFor="tipo">Objeto</label>
          <select id="tipo" name="tipo" defaultValue={filters.targetType ?? ''}>
            <option value="">Todos</option>
            <option value="integration">Integraciones</option>
            <option value="console_user">Usuarios</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="id">Id del objeto</label>
          <input id="id" name="id" inputMode="numeric" defaultValue={filters.targetId ?? ''} placeholder="p. ej. 3" />
        </div>
        <div className="actions">
          <button type="submit">Filtrar</button>
          {(filters.targetType || after) && (
            <Link className="button secondary" href="/admin/auditoria">
              Ver todo desde el más reciente
            </Link>
          )}
        </div>
      </form>
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title="No hay cambios registrados con estos filtros." />
        </div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="audit">
            <thead>
              <tr>
                <th>Fecha</th>
                <th>Quién</th>
                <th>Cambio</th>
                <th>Objeto</th>
                <th>Antes → después</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((entry) => {
                const changes = auditChanges(entry);
                return (
                  <tr key={entry.id}>
                    <td className="nowrap">{formatDateTime(entry.createdAt)}</td>
                    <td className="small">{entry.actor}</td>
                    <td>{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</td>
                    <td className="nowrap">
                      {entry.targetType === 'integration' ? (
                        <Link href={`/admin/integraciones/${entry.targetId}`}>Integración {entry.targetId}</Link>
                      ) : (
                        `${TARGET_LABELS[entry.targetType as keyof typeof TARGET_LABELS] ?? entry.targetType} ${entry.targetId}`
                      )}
                    </td>
                    <td className="small">
                      {changes.length === 0 ? (
                        <span className="muted">sin diferencias</span>
                      ) : (
                        <ul style={{ margin: 0, paddingLeft: '1rem' }}>
                          {changes.map((change) => (
                            <li key={change.field}>
                              <span className="mono">{change.field}</span>: {formatValue(change.field, change.before)} → {formatValue(change.field, change.after)}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {page.older && (
        <nav className="pagination" aria-label="Páginas">
          <span />
          <Link className="button secondary" href={`/admin/auditoria?${new URLSearchParams({ ...Object.fromEntries(base), despues: page.older })}`}>
            Cambios anteriores →
          </Link>
        </nav>
      )}
    </>
  );
}
