import type { Metadata } from 'next';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationOrNotFound, sectionTitle } from '../../integration';
import { PortalActivitySection } from '../../portal-activity-section';
import { PortalUsersSection } from '../../portal-users-section';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: await sectionTitle((await params).id, 'portal') };
}

/** The integrator's people in its portal: members, roles, last sign-in and pending invitations (administrators invite), and what they changed from it. */
export default async function IntegrationPortalPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  return (
    <>
      <PortalUsersSection integrationId={integration.id} isAdmin={user.role === 'admin'} />
      <PortalActivitySection integrationId={integration.id} isAdmin={user.role === 'admin'} />
    </>
  );
}
