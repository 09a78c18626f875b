import Link from 'next/link';
import { PageHeader } from '@/components/console/page-header';
import { PORTAL_REFUSAL_TITLE, portalRefusalText } from '@/lib/surfaces/portal/refusals';
import { portalPageRoles } from '@/lib/surfaces/portal/page-access';
import { currentPortalUser, requestedPortalPath } from '@/lib/surfaces/portal/session';

// A portal page this role may not open (requirePortalPage's forbidden()): a 403 at the address asked
// for, inside the portal's layout, naming the roles that may open it.
export default async function PortalForbidden() {
  const user = await currentPortalUser();
  const allowed = portalPageRoles(await requestedPortalPath());
  return (
    <>
      <PageHeader title={PORTAL_REFUSAL_TITLE} />
      <div className="card" data-testid="portal-forbidden">
        {user && <p>{portalRefusalText('página', user.integrationName, user.role, allowed)}</p>}
        <p>
          <Link href="/portal">Volver a Inicio</Link>
        </p>
      </div>
    </>
  );
}
