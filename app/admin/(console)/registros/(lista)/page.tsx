import type { Metadata } from 'next';
import Link from 'next/link';
import { DateRangeFields, FilterForm, FilterSelect } from '@/components/console/filter-form';
import { EmptyState, PageHeader } from '@/components/console/page-header';
import { Pagination } from '@/components/console/pagination';
import { HttpStatusBadge } from '@/components/console/status-badge';
import { requirePageUser } from '@/lib/auth/session';
import { integrationOptions } from '@/lib/console/integrations';
import { env } from '@/lib/env';
import { LOOKUP_LABELS, LOOKUPS, OUTCOME_LABELS } from '@/lib/format/labels';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { formatQuetzales } from '@/lib/money';
import { listRecordsPage } from '@/lib/records/list';
import { parseRecordFilters, recordFiltersToSearchParams } from '@/lib/records/filters';
import { OUTCOMES } from '@/lib/records/outcomes';
import { identifiersForRole } from '@/lib/personal-data/masking';

export const metadata: Metadata = { title: 'Registros de consultas' };

// The statuses a recorded query can end with: success and each row of the contract's error tables.
const STATUS_CODES = ['200', '400', '401', '402', '403', '404', '429', '500', '502'];

export default async function RecordsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser('support');
  const isAdmin = user.role === 'admin';
  const params = await searchParams;
  const { filters, problems } = parseRecordFilters(params);
  const position = {
    after: typeof params.despues === 'string' ? params.despues : undefined,
    before: typeof params.antes === 'string' ? params.antes : undefined,
  };
  const [page, integrations] = await Promise.all([listRecordsPage(filters, position), integrationOptions()]);
  // Support sees every identifier masked; "Mostrar" on a record's page reveals one record's, logged.
  const rows = page.rows.map((record) => identifiersForRole(record, user.role));
  const matching = page.matching;
  const maxExportRows = env().CSV_EXPORT_MAX_ROWS;
  const filterParams = recordFiltersToSearchParams(filters);
  const link = (extra: Record<string, string>) => {
    const query = new URLSearchParams(filterParams);
    for (const [key, value] of Object.entries(extra)) query.set(key, value);
    return `/admin/registros?${query}`;
  };
  const filtered = [...filterParams.keys()].length > 0;
  const problemOf = (field: string) => problems.find((problem) => problem.field === field)?.message;
  const typed = (field: string) => (typeof params[field] === 'string' ? (params[field] as string) : '');
  // The detail page's back link returns to this list with these filters.
  const back = filterParams.size > 0 ? `?volver=${encodeURIComponent(filterParams.toString())}` : '';

  return (
    <>
      <PageHeader
        title="Registros de consultas"
        description="Cada consulta que llegó a una fuente, de la más reciente a la más antigua. Horas de Guatemala."
        actions={
          matching !== undefined && matching > maxExportRows ? (
            <span className="small muted" data-testid="export-too-large">
              Para exportar, acota los filtros a {maxExportRows.toLocaleString('es-GT')} consultas o menos.
            </span>
          ) : (
            <>
              <a className="button secondary" href={`/admin/registros/exportar?${filterParams}`} download data-testid="export-masked">
                Exportar CSV{filtered ? ' (filtrado)' : ''}
              </a>
              {isAdmin && (
                <a
                  className="button secondary"
                  href={`/admin/registros/exportar?${new URLSearchParams([...filterParams, ['identificadores', 'completos']])}`}
                  download
                  data-testid="export-full"
                  title="Con NIT y CUI completos. La exportación queda registrada en Accesos a datos personales."
                >
                  Exportar con NIT y CUI completos
                </a>
              )}
            </>
          )
        }
      />
      <FilterForm action="/admin/registros" reset={filtered ? { href: '/admin/registros', label: 'Quitar filtros' } : undefined}>
        <FilterSelect
          name="integracion"
          label="Integración"
          value={filters.integracion}
          all="Todas"
          options={integrations.map((integration) => ({ value: integration.id, label: integration.nombre }))}
        />
        <FilterSelect name="consulta" label="Consulta" value={filters.consulta} all="Todas" options={LOOKUPS.map((lookup) => ({ value: lookup, label: LOOKUP_LABELS[lookup] }))} />
        <FilterSelect name="estado" label="Estado" value={filters.estado} all="Todos">
          <optgroup label="Por resultado">
            {OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {OUTCOME_LABELS[outcome]}
              </option>
            ))}
          </optgroup>
          <optgroup label="Código exacto">
            {STATUS_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </optgroup>
        </FilterSelect>
        <DateRangeFields desde={filters.desde} hasta={problemOf('hasta') ? typed('hasta') : filters.hasta} hastaProblem={problemOf('hasta')} />
        <div className="field">
          <label htmlFor="identificador">NIT o CUI</label>
          <input
            id="identificador"
            name="identificador"
            defaultValue={filters.identificador ?? ''}
            placeholder="576937-K o 2415 75181 0101"
            aria-describedby="identificador-ayuda"
          />
          <span id="identificador-ayuda" className="small muted">
            Con o sin guion ni espacios, en mayúsculas o minúsculas; incluye los lotes de RTU por NIT.
          </span>
        </div>
      </FilterForm>
      {problems.some((problem) => problem.field !== 'hasta') && (
        <p className="notice warn" role="alert">
          Se ignoraron filtros no válidos:{' '}
          {problems
            .filter((problem) => problem.field !== 'hasta')
            .map((problem) => problem.message)
            .join('; ')}{' '}
          Corrígelos y vuelve a filtrar.
        </p>
      )}
      {matching !== undefined && (
        <p className="small muted" data-testid="records-count">
          {matching === 1 ? '1 consulta coincide' : `${matching.toLocaleString('es-GT')} consultas coinciden`} (según los resúmenes por hora, hasta
          hace unos segundos). Cada exportación admite hasta {maxExportRows.toLocaleString('es-GT')} filas
          {isAdmin ? '; sale con los NIT y CUI enmascarados, salvo que la pidas con los identificadores completos (queda registrado).' : ', con los NIT y CUI enmascarados.'}
        </p>
      )}
      {rows.length === 0 ? (
        <div className="card">
          <EmptyState title={filtered ? 'Ninguna consulta coincide con estos filtros.' : 'Todavía no hay consultas registradas.'}>
            <p>
              {filtered
                ? 'Amplía el rango de fechas o quita algún filtro.'
                : 'Aparecen aquí en cuanto una integración consulta una fuente (RENAP, RTU o los catálogos).'}
            </p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="table-wrap" role="region" aria-label="Consultas" tabIndex={0}>
            <table className="data stacked" data-testid="records">
              <thead>
                <tr>
                  <th>Fecha</th>
                  <th>Integración</th>
                  <th>Consulta</th>
                  <th>Estado</th>
                  <th className="num">Tiempo</th>
                  <th>NIT / CUI</th>
                  <th className="num">Cobrado</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((record) => (
                  <tr key={record.id}>
                    <td className="nowrap" data-label="Fecha">
                      <Link href={`/admin/registros/${record.id}${back}`} prefetch={false}>{formatDateTime(record.createdAt)}</Link>
                    </td>
                    <td data-label="Integración">{record.integrationNombre}</td>
                    <td data-label="Consulta">{LOOKUP_LABELS[record.lookup]}</td>
                    <td data-label="Estado" data-testid="record-status">
                      <HttpStatusBadge status={record.httpStatus} />
                    </td>
                    <td className="num" data-label="Tiempo">
                      {record.responseTimeMs.toLocaleString('es-GT')} ms
                    </td>
                    <td className="mono small" data-label="NIT / CUI" data-testid="record-identifier">
                      {[record.nit, record.cui].filter(Boolean).join(' · ')}
                    </td>
                    <td className="num" data-label="Cobrado" data-testid="record-charged">
                      {formatQuetzales(record.chargedCentavos)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            newer={page.newer ? link({ antes: page.newer }) : undefined}
            older={page.older ? link({ despues: page.older }) : undefined}
            olderLabel="Más antiguas"
          />
        </>
      )}
    </>
  );
}
