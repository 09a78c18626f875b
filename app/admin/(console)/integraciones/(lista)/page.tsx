import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { ActiveBadge } from '@/components/console/status-badge';
import { requirePageUser } from '@/lib/auth/session';
import { listIntegrationsWithLastQuery } from '@/lib/console/integrations';
import { FLAG_LOOKUP, LOOKUP_LABELS } from '@/lib/format/labels';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { FLAG_NAMES } from '@/lib/integrations/flags';
import { formatQuetzales } from '@/lib/money';

export const metadata: Metadata = { title: 'Integraciones' };

export default async function IntegrationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const params = await searchParams;
  const search = typeof params.q === 'string' ? params.q.slice(0, 64) : '';
  const integrations = await listIntegrationsWithLastQuery(search);

  return (
    <>
      <PageHeader
        title="Integraciones"
        description="Sistemas de terceros que consultan la API: sus consultas habilitadas, tarifa y saldo."
        actions={
          user.role === 'admin' && (
            <Link className="button" href="/admin/integraciones/nueva">
              Nueva integración
            </Link>
          )
        }
      />
      <form className="inline card" role="search" action="/admin/integraciones">
        <div className="field" style={{ flex: '1 1 16rem' }}>
          <label htmlFor="q">Buscar por nombre</label>
          <input id="q" name="q" type="search" defaultValue={search} placeholder="p. ej. banco-industrial" />
        </div>
        <button type="submit">Buscar</button>
        {search && (
          <Link className="button secondary" href="/admin/integraciones">
            Limpiar
          </Link>
        )}
      </form>
      {integrations.length === 0 ? (
        <div className="card">
          {search ? (
            <EmptyState title={`Ninguna integración coincide con «${search}».`}>
              <p>Revisa cómo se escribe el nombre o <Link href="/admin/integraciones">muestra todas</Link>.</p>
            </EmptyState>
          ) : (
            <EmptyState title="Todavía no hay integraciones.">
              <p>
                {user.role === 'admin' ? (
                  <>
                    Crea la primera con <Link href="/admin/integraciones/nueva">Nueva integración</Link>: recibirás su token una sola vez.
                  </>
                ) : (
                  'Un administrador debe crearlas.'
                )}
              </p>
            </EmptyState>
          )}
        </div>
      ) : (
        <div className="table-wrap" role="region" aria-label="Integraciones" tabIndex={0}>
          <table className="data stacked" data-testid="integrations">
            <thead>
              <tr>
                <th>Nombre</th>
                <th>Estado</th>
                <th>Consultas habilitadas</th>
                <th className="num">Tarifa</th>
                <th className="num">Saldo</th>
                <th>Última consulta</th>
              </tr>
            </thead>
            <tbody>
              {integrations.map((integration) => (
                <tr key={integration.id}>
                  <td data-label="Nombre">
                    <div>
                      <Link href={`/admin/integraciones/${integration.id}`}>{integration.nombre}</Link>
                      <div className="small muted mono">{integration.tokenPrefixes ?? 'Sin token vigente'}</div>
                    </div>
                  </td>
                  <td data-label="Estado" data-testid="integration-status">
                    <ActiveBadge active={integration.active} />
                  </td>
                  <td data-label="Consultas habilitadas">
                    <div className="flags">
                      {FLAG_NAMES.map((flag) => (
                        <span key={flag} className={`badge ${integration[flag] ? 'ok' : 'off'}`} title={integration[flag] ? 'Habilitada' : 'Deshabilitada'}>
                          <span aria-hidden="true">{integration[flag] ? '✓ ' : '✕ '}</span>
                          {LOOKUP_LABELS[FLAG_LOOKUP[flag]]}
                          <span className="sr-only">{integration[flag] ? ' (habilitada)' : ' (deshabilitada)'}</span>
                        </span>
                      ))}
                    </div>
                  </td>
                  <td className="num" data-label="Tarifa">
                    {formatQuetzales(integration.tariffCentavos)}
                  </td>
                  <td className="num" data-label="Saldo" data-testid="integration-balance">
                    {formatQuetzales(integration.balanceCentavos)}
                  </td>
                  <td className="nowrap" data-label="Última consulta">
                    {integration.lastQueryAt ? formatDateTime(integration.lastQueryAt) : <span className="muted">Nunca</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
