import type { Metadata } from 'next';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { detailsOf } from '@/lib/flows/integration-management/details-service';
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
      <DetailsSection integrationId={integration.id} details={detailsOf(integration)} billing={integration} isAdmin={isAdmin} />
      <ReceptorSection integration={integration} isAdmin={isAdmin} />
      <PurposeSection integrationId={integration.id} purpose={integration.purpose} isAdmin={isAdmin} />
      {isAdmin && <StatusSection integration={integration} />}
    </>
  );
}
