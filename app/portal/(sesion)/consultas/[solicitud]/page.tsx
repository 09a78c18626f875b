import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { RecordChargeLine, RecordDetailList, RecordIdentifierFields, RecordReplayNotice, RecordTariffField } from '@/components/records/record-detail';
import { RevealIdentifiers } from '@/components/records/reveal-identifiers';
import { PORTAL_RECORDS_PATH, portalRecordPage } from '@/lib/surfaces/portal/records';
import { RECORD_READERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { revealPortalRecordAction } from '../actions';
import { ConstanciaCard } from '@/components/constancias/constancia-card';
import { portalConstancia } from '@/lib/surfaces/portal/constancias';

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
  const record = await portalRecordPage(user, solicitud, await searchParams);
  if (!record) notFound();
  const { charge } = record;
  const constancia = await portalConstancia(user, solicitud);
  return (
    <>
      <PageHeader title="Consulta" description={<span className="mono break-anywhere">{record.requestId}</span>} back={{ href: PORTAL_RECORDS_PATH, label: 'Consultas' }} />
      {record.replay && <RecordReplayNotice replay={record.replay} requestId={record.requestId} chargedCentavos={charge.chargedCentavos} />}
      <div className="grid grid-2">
        <section className="card" aria-labelledby="consulta-titulo">
          <h2 id="consulta-titulo">Qué pasó</h2>
          <p data-testid="record-explanation">{record.explanation ?? 'Respondida sin error.'}</p>
          <RecordChargeLine charge={charge} />
          <RecordDetailList record={record}>
            <RecordTariffField tariffCentavos={record.tariffCentavos} />
          </RecordDetailList>
        </section>
        <section className="card" aria-labelledby="identificadores-titulo">
          <h2 id="identificadores-titulo">Identificadores consultados</h2>
          <dl className="details">
            <RecordIdentifierFields nit={record.nit} cui={record.cui} />
          </dl>
          {record.hasIdentifiers && (
            <>
              <p className="small muted">Enmascarados. Para verlos completos indique el motivo: el acceso queda registrado.</p>
              <RevealIdentifiers
                reveal={revealPortalRecordAction}
                hidden={{ solicitud: record.requestId }}
                reasonHint="Un texto breve, por ejemplo: conciliar un cobro con nuestro sistema."
                loggedNote="El acceso quedó registrado con su nombre y su motivo; la administración del servicio puede verlo."
              />
            </>
          )}
        </section>
        {constancia && <ConstanciaCard constancia={constancia} reasonHint="Un texto breve, por ejemplo: expediente del cliente 4821." />}
      </div>
    </>
  );
}
