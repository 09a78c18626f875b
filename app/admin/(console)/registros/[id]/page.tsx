import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { RecordChargeLine, RecordDetailList, RecordIdentifierFields, RecordReplayNotice, RecordTariffField } from '@/components/records/record-detail';
import { RevealIdentifiers } from '@/components/records/reveal-identifiers';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { explainRecordError } from '@/lib/presentation/record-errors';
import { formatQuetzales } from '@/lib/platform/money';
import { explainCharge } from '@/lib/presentation/charge-explanation';
import { recordListBackQuery, recordView, REPLAY_PARAM } from '@/lib/surfaces/console/records';
import { isCatalogLookup } from '@/db/schema';
import { revealRecordIdentifiersAction } from '../actions';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';
import { ConstanciaCard } from '@/components/constancias/constancia-card';
import { consoleConstancia } from '@/lib/surfaces/console/constancias';

const NOT_RECORDED = 'No registrado (consulta anterior a que se guardara este dato)';

/** Money with its sign on the balance: "-Q 1.50" taken, "+Q 1.50" given back, "Q 0.00" nothing. */
function balanceEffect(centavos: number): string {
  return centavos > 0 ? `+${formatQuetzales(centavos)}` : formatQuetzales(centavos);
}

/** What the 200 carried, in the lookup's terms; undefined when the query did not end in 200. */
function describeAnswer(record: { lookup: string; httpStatus: number; answerEmpty: boolean | null; chargedCentavos: number }): string | undefined {
  if (record.httpStatus !== 200) return undefined;
  if (record.answerEmpty === null) return NOT_RECORDED;
  if (!record.answerEmpty) return 'Con datos';
  if (record.lookup === 'renap') return 'Vacía: el registro respondió 200 sin datos de la persona (su responseCode dice por qué).';
  if (record.lookup === 'rtu_nits') return 'Vacía: el registro respondió 200 sin encontrar ninguno de los NIT.';
  const charged = record.chargedCentavos > 0 ? ` Se cobró igual (${formatQuetzales(record.chargedCentavos)}): toda respuesta 200 se cobra.` : '';
  return `Vacía: la fuente respondió 200 sin ningún dato (todos los campos en null).${charged}`;
}

// What the integrator asked for, in words: whatever the source answered, or if it never did (a 502),
// these say what the request carried, not what came back.
function describeActualizado(actualizado: boolean | null): string {
  if (actualizado === null) return NOT_RECORDED;
  return actualizado ? 'Pedidos: la fuente debía consultar a la autoridad en ese momento' : 'No pedidos: bastaba la copia que guarda la fuente';
}

function describeDateOfBirth(lookup: string, sent: boolean | null): string {
  if (sent === null) return NOT_RECORDED;
  if (!sent) return 'No enviada';
  if (lookup !== 'rtu') return 'Enviada, pero esta consulta no la usa (solo la lee el catálogo RTU)';
  return 'Enviada a la fuente (la fecha no se guarda)';
}

/** The tab names the query by its number, as its page heading does. */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: /^\d{1,18}$/.test(id) ? `Consulta ${id}` : 'Consulta' };
}

export default async function RecordPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser('support');
  const { id } = await params;
  const { volver, [REPLAY_PARAM]: replayParam } = await searchParams;
  // Back to the list as it was filtered: only the list's own filters, re-encoded, never a raw link.
  const listQuery = recordListBackQuery(volver);
  if (!/^\d{1,18}$/.test(id)) notFound();
  // Opened by a replayed Idempotency-Key answer's request id (./solicitud): said only when its trace
  // really repeated this query.
  const found = await recordView(Number(id), replayParam);
  if (!found) notFound();
  // Every role sees the identifiers masked (and masked inside the source's error detail); "Mostrar"
  // reveals them with a reason, logged (administrators were not asked).
  const { record, ledger, hasIdentifiers, replay } = found;
  const explanation = explainRecordError(record);
  const answer = describeAnswer(record);
  const isCatalog = isCatalogLookup(record.lookup);
  const charge = explainCharge(record, ledger, record.lookup);
  const constancia = await consoleConstancia(record.id, record.requestId);

  return (
    <>
      <PageHeader title={`Consulta ${record.id}`} back={{ href: listQuery ? `/admin/registros?${listQuery}` : '/admin/registros', label: 'Registros de consultas' }} />
      {replay && <RecordReplayNotice replay={replay} requestId={record.requestId} chargedCentavos={record.chargedCentavos} />}
      <div className="grid grid-2">
        <section className="card">
          <h2>Consulta</h2>
          <RecordDetailList record={record} integration={<Link href={integrationPath(record.integrationId)}>{record.integrationNombre}</Link>} answer={answer}>
            {isCatalog && (
              <>
                <dt>Datos recientes</dt>
                <dd data-testid="record-actualizado">{describeActualizado(record.actualizado)}</dd>
                <dt>Fecha de nacimiento</dt>
                <dd data-testid="record-date-of-birth">{describeDateOfBirth(record.lookup, record.dateOfBirthSent)}</dd>
              </>
            )}
            <RecordIdentifierFields nit={record.nit} cui={record.cui} />
            {hasIdentifiers && (
              <>
                <dt>Datos personales</dt>
                {/* The reason's form and the identifiers it shows take the card's whole width on a phone. */}
                <dd className="spans-row">
                  <p className="small muted">Enmascarados. Para verlos completos indique el motivo: el acceso queda registrado.</p>
                  <RevealIdentifiers
                    reveal={revealRecordIdentifiersAction}
                    hidden={{ recordId: record.id }}
                    reasonHint="Un texto breve o el número de ticket de soporte, por ejemplo: Ticket 4821, el integrador reclama un cobro."
                    loggedNote="El acceso quedó registrado con su motivo en «Accesos a datos personales»."
                  />
                </dd>
              </>
            )}
            <dt>Qué pasó</dt>
            <dd>
              <span data-testid="record-explanation">{explanation ?? 'Respondida sin error'}</span>
              {record.errorMessage && (
                <details className="raw-detail">
                  <summary>Detalle técnico</summary>
                  <pre className="mono small" data-testid="record-error-raw">
                    {record.errorMessage}
                  </pre>
                </details>
              )}
            </dd>
          </RecordDetailList>
        </section>
        <section className="card">
          <h2>Cobro</h2>
          <RecordChargeLine charge={charge} />
          <dl className="details">
            <RecordTariffField tariffCentavos={record.tariffCentavos} />
          </dl>
          {charge.movements.length > 0 && (
            <div className="table-wrap" role="region" aria-label="Movimientos de saldo de esta consulta" tabIndex={0} style={{ marginTop: '0.75rem' }}>
              <table className="data stacked" data-testid="record-movements">
                <thead>
                  <tr>
                    <th>Movimiento</th>
                    <th className="num">Efecto en el saldo</th>
                    <th>Fecha</th>
                  </tr>
                </thead>
                <tbody>
                  {charge.movements.map((movement) => (
                    <tr key={movement.id}>
                      <td data-label="Movimiento">{movement.label}</td>
                      <td className="num" data-label="Efecto en el saldo">
                        {balanceEffect(movement.effectCentavos)}
                      </td>
                      <td className="nowrap" data-label="Fecha">
                        {formatDateTime(movement.createdAt)}
                      </td>
                    </tr>
                  ))}
                  <tr>
                    <td>
                      <strong>Total en el saldo</strong>
                    </td>
                    <td className="num" data-label="Efecto en el saldo" data-testid="record-movements-total">
                      <strong>{balanceEffect(charge.totalEffectCentavos)}</strong>
                    </td>
                    <td />
                  </tr>
                </tbody>
              </table>
            </div>
          )}
          <p className="small muted">
            Los catálogos reservan la tarifa del saldo antes de consultar la fuente; si la fuente responde 200 la reserva queda como cobro, en cualquier
            otro caso se libera y el saldo vuelve a ser el de antes.
          </p>
        </section>
        {constancia && <ConstanciaCard constancia={constancia} reasonHint="Un texto breve o el número de ticket, por ejemplo: Ticket 4821, el integrador pide su constancia." />}
      </div>
    </>
  );
}
