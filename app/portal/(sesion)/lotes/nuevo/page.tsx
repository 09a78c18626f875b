import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { PORTAL_BULK_PATH, portalBulkCatalogOptions, portalConstanciasEnabled } from '@/lib/surfaces/portal/bulk';
import { BULK_JOB_RUNNERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { NewBulkJobForm } from './new-bulk-job-form';

export const metadata: Metadata = { title: 'Nuevo lote' };

// "Nuevo lote": only the catalogs the integration has enabled (the flag each item checks, as the
// API does); none enabled, nothing to offer.
export default async function NewPortalBulkJobPage() {
  const user = await requirePortalPage(BULK_JOB_RUNNERS);
  const [catalogs, constanciasEnabled] = await Promise.all([portalBulkCatalogOptions(user), portalConstanciasEnabled(user)]);
  return (
    <>
      <PageHeader
        title="Nuevo lote"
        description="Suba un archivo CSV con los NIT o CUI a consultar en un catálogo. Antes de crear el lote verá cuántos se consultarán y cuánto puede costar."
        back={{ href: PORTAL_BULK_PATH, label: 'Lotes' }}
      />
      <section className="card">
        {catalogs.length === 0 ? (
          <p data-testid="bulk-no-catalogs">
            Su integración no tiene habilitado ningún catálogo (CUI/NIT, RTU u omisos), así que no puede crear lotes. Pida a la administración del servicio que
            habilite el que necesita.
          </p>
        ) : (
          <NewBulkJobForm catalogs={catalogs} constanciasEnabled={constanciasEnabled} />
        )}
      </section>
    </>
  );
}
