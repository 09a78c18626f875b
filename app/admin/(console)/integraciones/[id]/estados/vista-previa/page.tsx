import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/console/page-header';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { env } from '@/lib/platform/settings/env';
import { integrationOfAddress } from '@/lib/surfaces/console/integration-pages';
import { STATEMENT_PREVIEW_MARK, statementPreviewView } from '@/lib/surfaces/console/statements';
import { StatementPreviewDocument } from '@/components/statements/statement-preview';
import { integrationPath, statementsPath } from '@/lib/surfaces/console/integration-sections';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const integration = await integrationOfAddress(id);
  return { title: integration ? `Vista previa del estado de cuenta de ${integration.nombre}` : 'Vista previa del estado de cuenta' };
}

/**
 * What a statement of the running month (or of the days picked) would say now, for administrators
 * and support (who read statements too). Marked as a preview, never numbered, never stored:
 * issuing stays the statements section's own action, for a closed month.
 */
export default async function StatementPreviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser('support');
  const { id } = await params;
  const integration = await integrationOfAddress(id);
  if (!integration) notFound();
  const query = await searchParams;
  const { range, preview, problem, running } = await statementPreviewView(integration, query, new Date());
  const base = `${statementsPath(integration.id)}/vista-previa`;
  const onRunningMonth = range.ok && range.value.desde === running.desde && range.value.hasta === running.hasta;
  // The fields keep what was typed when it was refused, so it can be corrected.
  const typed = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');
  const shown = range.ok ? range.value : { desde: typed(query.desde), hasta: typed(query.hasta) };

  return (
    <>
      <PageHeader
        title={`Vista previa del estado de cuenta de ${integration.nombre}`}
        back={{ href: integrationPath(integration.id, 'saldo'), label: `Estados de cuenta de ${integration.nombre}` }}
        description="Lo que diría un estado de cuenta de estas fechas con las cifras de este momento. Emitir uno sigue siendo aparte: una vez por mes cerrado, desde «Saldo y estados de cuenta» de la integración."
        actions={
          preview?.ok && (
            // POST: the days travel in the form, not in the download's address.
            <form method="post" action={`${base}/pdf`}>
              <input type="hidden" name="desde" value={preview.value.range.desde} />
              <input type="hidden" name="hasta" value={preview.value.range.hasta} />
              <button type="submit">Descargar PDF de la vista previa</button>
            </form>
          )
        }
      />
      <p className="notice warn" data-testid="preview-mark">
        <strong>{STATEMENT_PREVIEW_MARK}.</strong> No tiene número ni se guarda; si incluye el día de hoy, sus cifras cambian con cada consulta, recarga o ajuste.
      </p>
      <form className="card filters" action={base} method="get" aria-label="Fechas de la vista previa">
        <div className="field">
          <label htmlFor="desde">Desde</label>
          <input id="desde" name="desde" type="date" defaultValue={shown.desde} max={running.hasta} />
        </div>
        <div className="field">
          <label htmlFor="hasta">Hasta (incluido)</label>
          <input id="hasta" name="hasta" type="date" defaultValue={shown.hasta} max={running.hasta} />
        </div>
        <div className="actions">
          <button type="submit">Ver vista previa</button>
          {!onRunningMonth && (
            <Link className="button secondary" href={base}>
              Mes en curso
            </Link>
          )}
        </div>
      </form>
      {problem && (
        <p className="notice error" role="alert" data-testid="preview-problem">
          {problem}
        </p>
      )}
      {preview?.ok && <StatementPreviewDocument preview={preview.value} serviceName={env().SERVICE_NAME} />}
    </>
  );
}
