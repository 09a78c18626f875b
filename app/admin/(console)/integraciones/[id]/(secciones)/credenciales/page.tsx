import type { Metadata } from 'next';
import { requirePageUser } from '@/lib/surfaces/console/session';
import { integrationCredentialsView } from '@/lib/surfaces/console/integration-pages';
import { AllowedNetworksSection } from '../../allowed-networks-section';
import { integrationOrNotFound, sectionTitle } from '../../integration';
import { TokensSection } from '../../tokens-section';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: await sectionTitle((await params).id, 'credenciales') };
}

/** How the integration proves who it is: its tokens, and the addresses its requests may come from. */
export default async function IntegrationCredentialsPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser('support');
  const integration = await integrationOrNotFound((await params).id);
  const isAdmin = user.role === 'admin';
  const { tokens, refused } = await integrationCredentialsView(integration.id);
  return (
    <>
      <TokensSection integrationId={integration.id} tokens={tokens} isAdmin={isAdmin} />
      <AllowedNetworksSection integrationId={integration.id} allowedNetworks={integration.allowedNetworks} refused={refused} isAdmin={isAdmin} />
    </>
  );
}
