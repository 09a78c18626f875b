import type { Metadata } from 'next';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationOrNotFound, sectionTitle } from '../../integration';
import { NotificationsSection } from '../../notifications-section';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: await sectionTitle((await params).id, 'notificaciones') };
}

/** What the integrator is told, and how: its webhook, what each contact receives, the latest notices. */
export default async function IntegrationNotificationsPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  return <NotificationsSection integration={integration} isAdmin={user.role === 'admin'} />;
}
