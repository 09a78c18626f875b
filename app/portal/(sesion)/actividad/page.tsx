import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { portalActivityPage } from '@/lib/surfaces/portal/activity';
import { ACTIVITY_READERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';

export const metadata: Metadata = { title: 'Actividad' };

const BASE = '/portal/actividad';

// Actividad (owners only): who did what to the integration, newest first, paged by cursor.
export default async function PortalActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePortalPage(ACTIVITY_READERS);
  const query = await searchParams;
  const page = await portalActivityPage(user, query);
  const paged = typeof query.despues === 'string';
  return (
    <>
      <PageHeader
        title="Actividad"
        description={`Quién hizo qué en «${user.integrationName}» y cuándo: tokens, identificadores mostrados, resultados descargados, el equipo y la configuración. El personal del servicio aparece como «Administración».`}
      />
      {page.rows.length === 0 ? (
        <div className="card">
          <EmptyState title={paged ? 'No hay actividad más antigua.' : 'Su integración todavía no tiene actividad registrada.'} />
        </div>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Actividad de la integración" tabIndex={0}>
            <table className="data stacked" data-testid="portal-activity">
              <thead>
                <tr>
                  <th>Fecha (hora de Guatemala)</th>
                  <th>Quién</th>
                  <th>Qué</th>
                  <th>Detalle</th>
                </tr>
              </thead>
              <tbody>
                {page.rows.map((row) => (
                  <tr key={row.key}>
                    <td className="nowrap" data-label="Fecha">
                      {formatDateTime(row.at)}
                    </td>
                    <td className="break-anywhere" data-label="Quién">
                      {row.who}
                    </td>
                    <td data-label="Qué">{row.what}</td>
                    <td className="small" data-label="Detalle">
                      <span>
                        {row.detail ?? '—'}
                        {row.link && (
                          <>
                            {' · '}
                            <Link href={row.link.href}>Ver {row.link.label}</Link>
                          </>
                        )}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination newer={paged ? BASE : undefined} older={page.older ? `${BASE}?${new URLSearchParams({ despues: page.older })}` : undefined} olderLabel="Más antigua" />
        </>
      )}
    </>
  );
}
