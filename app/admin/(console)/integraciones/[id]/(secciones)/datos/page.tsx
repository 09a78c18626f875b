import type { Metadata } from 'next';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationDetailsView } from '@/lib/surfaces/console/integration-pages';
import { DetailsSection } from '../../details-section';
import { integrationOrNotFound, sectionTitle } from '../../integration';
import { PurposeSection } from '../../purpose-section';
import { ReceptorSection } from '../../receptor-section';
import { StatusSection } from '../../status-section';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: await sectionTitle((await params).id, 'datos') };
}

/** Who the integrator is and why it looks identifiers up; deactivating the integration (administrators). */
export default async function IntegrationDetailsPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  const isAdmin = user.role === 'admin';
  return (
    <>
      <DetailsSection integrationId={integration.id} details={integrationDetailsView(integration)} billing={integration} isAdmin={isAdmin} />
      <ReceptorSection integration={integration} isAdmin={isAdmin} />
      <PurposeSection integrationId={integration.id} purpose={integration.purpose} isAdmin={isAdmin} />
      {isAdmin && <StatusSection integration={integration} />}
    </>
  );
}
