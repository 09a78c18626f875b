import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { portalConstanciasEnabled } from '@/lib/surfaces/portal/bulk';
import { BULK_JOB_RUNNERS } from '@/lib/surfaces/portal/page-access';
import { requirePortalPage } from '@/lib/surfaces/portal/session';
import { PORTAL_WATCH_LISTS_PATH, portalWatchListFormOptions } from '@/lib/surfaces/portal/watch-lists';
import { NewWatchListForm } from './new-watch-list-form';

export const metadata: Metadata = { title: 'Nueva lista' };

// "Nueva lista": only the catalogs lib/flows/watch-lists watches that the integration has enabled (the
// flag each run's items check, as POST /api/vigilancias does); none, nothing to offer.
export default async function NewPortalWatchListPage() {
  const user = await requirePortalPage(BULK_JOB_RUNNERS);
  const [{ catalogs, schedules }, constanciasEnabled] = await Promise.all([portalWatchListFormOptions(user), portalConstanciasEnabled(user)]);
  return (
    <>
      <PageHeader
        title="Nueva lista"
        description="Suba un archivo CSV con los NIT a vigilar. Antes de crearla verá cuántos se vigilarán y cuánto puede costar cada ejecución."
        back={{ href: PORTAL_WATCH_LISTS_PATH, label: 'Vigilancia' }}
      />
      <section className="card">
        {catalogs.length === 0 ? (
          <p data-testid="watch-no-catalogs">
            Su integración no tiene habilitado el catálogo RTU ni el de omisos, así que no puede vigilar listas. Pida a la administración del servicio que
            habilite el que necesita.
          </p>
        ) : (
          <NewWatchListForm catalogs={catalogs} schedules={schedules} constanciasEnabled={constanciasEnabled} />
        )}
      </section>
    </>
  );
}
