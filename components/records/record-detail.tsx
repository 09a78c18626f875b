import type { ReactNode } from 'react';
import { CopyButton } from '@/components/console/copy-button';
import { IdentifierList, nitList } from '@/components/console/identifier-list';
import { HttpStatusBadge } from '@/components/console/status-badge';
import type { LookupKind } from '@/db/schema';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { LOOKUP_PATHS } from '@/lib/vocabulary/lookups';
import { formatQuetzales } from '@/lib/platform/money';
import type { ChargeExplanation } from '@/lib/presentation/charge-explanation';

// One query record's page, the console's (Registros de consultas) and the portal's (Consultas):
// the parts both show, alike. What each may show is decided on the server before these render:
// they show what they are given (identifiers come already masked).

/** What every record's page says about the query itself. */
export interface RecordFacts {
  createdAt: Date;
  lookup: LookupKind;
  httpStatus: number;
  responseTimeMs: number;
  requestId: string;
}

/**
 * The query's facts as a definition list: when, which lookup, its status, how long it took and its
 * request id (to copy). The console's own fields go in `integration` (after the date), `answer`
 * (after the status) and `children` (after the response time), in the order it has always shown them.
 */
export function RecordDetailList({ record, integration, answer, children }: { record: RecordFacts; integration?: ReactNode; answer?: string; children?: ReactNode }) {
  return (
    <dl className="details" data-testid="record-detail">
      <dt>Fecha</dt>
      <dd>{formatDateTime(record.createdAt)} (hora de Guatemala)</dd>
      {integration && (
        <>
          <dt>Integración</dt>
          <dd>{integration}</dd>
        </>
      )}
      <dt>Consulta</dt>
      <dd className="spans-row">
        {LOOKUP_LABELS[record.lookup]} <span className="mono small muted whole-value">{LOOKUP_PATHS[record.lookup]}</span>
      </dd>
      <dt>Estado HTTP</dt>
      <dd>
        <HttpStatusBadge status={record.httpStatus} />
      </dd>
      {answer && (
        <>
          <dt>Respuesta</dt>
          <dd data-testid="record-answer">{answer}</dd>
        </>
      )}
      <dt>Tiempo de respuesta</dt>
      <dd>{record.responseTimeMs.toLocaleString('es-GT')} ms</dd>
      {children}
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
  );
}

/** NIT and CUI as a definition list's entries: a batch's NITs each whole, "—" where none was sent. */
export function RecordIdentifierFields({ nit, cui }: { nit: string | null; cui: string | null }) {
  return (
    <>
      <dt>NIT</dt>
      <dd className="mono" data-testid="record-nit">
        {nit ? <IdentifierList identifiers={nitList(nit)} /> : '—'}
      </dd>
      <dt>CUI</dt>
      <dd className="mono" data-testid="record-cui">
        {cui ?? '—'}
      </dd>
    </>
  );
}

/** The tariff the query was taken at, as a definition list's entry. */
export function RecordTariffField({ tariffCentavos }: { tariffCentavos: number | null }) {
  return (
    <>
      <dt>Tarifa al consultar</dt>
      <dd>{tariffCentavos === null ? 'No aplica: esta consulta no se cobra' : formatQuetzales(tariffCentavos)}</dd>
    </>
  );
}

/** What the query cost, or why it cost nothing. */
export function RecordChargeLine({ charge }: { charge: ChargeExplanation }) {
  return (
    <p className="charge-line" data-testid="record-charged">
      {charge.notChargedBecause === undefined ? (
        <strong>Cobrado: {formatQuetzales(charge.chargedCentavos)}</strong>
      ) : (
        <>
          <strong>Sin cobro.</strong> <span className="muted">{charge.notChargedBecause}</span>
        </>
      )}
    </p>
  );
}

/**
 * The page opened by a replayed Idempotency-Key answer's request id: which request repeated this
 * query, and that only this query was ever charged. `chargedCentavos` is this query's charge.
 */
export function RecordReplayNotice({ replay, requestId, chargedCentavos }: { replay: { requestId: string; at: Date; httpStatus: number }; requestId: string; chargedCentavos: number }) {
  return (
    <div className="notice info break-anywhere" role="status" data-testid="record-replay">
      {`${replay.requestId} es una repetición de ${requestId} con la misma Idempotency-Key (${formatDateTime(replay.at)}): recibió la misma respuesta que esta consulta (${replay.httpStatus}) y no se cobró; ${
        chargedCentavos > 0 ? `esta consulta se cobró una vez (${formatQuetzales(chargedCentavos)}).` : 'esta consulta tampoco se cobró.'
      }`}
    </div>
  );
}
