import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CopyButton } from '@/components/console/copy-button';
import { IdentifierList, nitList } from '@/components/console/identifier-list';
import { PageHeader } from '@/components/console/page-header';
import { HttpStatusBadge } from '@/components/console/status-badge';
import { formatDateTime } from '@/lib/format/guatemala-time';
import { LOOKUP_LABELS, LOOKUP_ROUTES } from '@/lib/format/labels';
import { formatQuetzales } from '@/lib/money';
import { PORTAL_RECORDS_PATH, portalRecordDetail } from '@/lib/portal/records';
import { RECORD_READERS } from '@/lib/portal/roles';
import { requirePortalPage } from '@/lib/portal/session';
import { REPLAY_PARAM } from '@/lib/request-ids/search';
import { revealPortalRecordAction } from '../actions';
import { RevealPortalIdentifiers } from './reveal-identifiers';

export const metadata: Metadata = { title: 'Consulta' };

// One query of the session's integration, addressed by its request id (random, what the
// integrator's system logged; never an identifier): what happened, whether it was charged, the
// identifiers masked with "Mostrar". Another integration's request id is the same 404 as an unknown one.
export default async function PortalRecordPage({
  params,
  searchParams,
}: {
  params: Promise<{ solicitud: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePortalPage(RECORD_READERS);
  const { solicitud } = await params;
  const replayParam = (await searchParams)[REPLAY_PARAM];
  const record = await portalRecordDetail(user, solicitud, typeof replayParam === 'string' ? replayParam : undefined);
  if (!record) notFound();
  const { charge } = record;
  return (
    <>
      <PageHeader title="Consulta" description={<span className="mono break-anywhere">{record.requestId}</span>} back={{ href: PORTAL_RECORDS_PATH, label: 'Consultas' }} />
      {record.replay && (
        <div className="notice info break-anywhere" role="status" data-testid="record-replay">
          {`${record.replay.requestId} es una repetición de ${record.requestId} con la misma Idempotency-Key (${formatDateTime(record.replay.at)}): recibió la misma respuesta que esta consulta (${record.replay.httpStatus}) y no se cobró; ${
            charge.chargedCentavos > 0 ? `esta consulta se cobró una vez (${formatQuetzales(charge.chargedCentavos)}).` : 'esta consulta tampoco se cobró.'
          }`}
        </div>
      )}
      <div className="grid grid-2">
        <section className="card" aria-labelledby="consulta-titulo">
          <h2 id="consulta-titulo">Qué pasó</h2>
          <p data-testid="record-explanation">{record.explanation ?? 'Respondida sin error.'}</p>
          <p className="charge-line" data-testid="record-charged">
            {charge.notChargedBecause === undefined ? (
              <strong>Cobrado: {formatQuetzales(charge.chargedCentavos)}</strong>
            ) : (
              <>
                <strong>Sin cobro.</strong> <span className="muted">{charge.notChargedBecause}</span>
              </>
            )}
          </p>
          <dl className="details" data-testid="record-detail">
            <dt>Fecha</dt>
            <dd>{formatDateTime(record.createdAt)} (hora de Guatemala)</dd>
            <dt>Consulta</dt>
            <dd className="spans-row">
              {LOOKUP_LABELS[record.lookup]}{' '}
              <span className="mono small muted whole-value">{LOOKUP_ROUTES[record.lookup]}</span>
            </dd>
            <dt>Estado HTTP</dt>
            <dd>
              <HttpStatusBadge status={record.httpStatus} />
            </dd>
            <dt>Tiempo de respuesta</dt>
            <dd>{record.responseTimeMs.toLocaleString('es-GT')} ms</dd>
            <dt>Tarifa al consultar</dt>
            <dd>{record.tariffCentavos === null ? 'No aplica: esta consulta no se cobra' : formatQuetzales(record.tariffCentavos)}</dd>
            <dt>Id de solicitud</dt>
            <dd className="spans-row">
              <span className="copyable">
                <code className="mono small whole-value" data-testid="record-request-id">
                  {record.requestId}
                </code>
                <CopyButton text={record.requestId} accessibleName="Copiar el id de solicitud" />
              </span>
            </dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="identificadores-titulo">
          <h2 id="identificadores-titulo">Identificadores consultados</h2>
          <dl className="details">
            <dt>NIT</dt>
            <dd className="mono" data-testid="record-nit">
              {record.nit ? <IdentifierList identifiers={nitList(record.nit)} /> : '—'}
            </dd>
            <dt>CUI</dt>
            <dd className="mono" data-testid="record-cui">
              {record.cui ?? '—'}
            </dd>
          </dl>
          {record.hasIdentifiers && (
            <>
              <p className="small muted">Enmascarados. Para verlos completos indica el motivo: el acceso queda registrado.</p>
              <RevealPortalIdentifiers requestId={record.requestId} reveal={revealPortalRecordAction} />
            </>
          )}
        </section>
      </div>
    </>
  );
}
