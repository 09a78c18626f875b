import { listTokens, type ListedToken } from '@/lib/credentials/tokens';
import { findIntegration } from '@/lib/integrations/service';
import type { PortalUserSession } from './session';

// "Credenciales" (read only in this slice): the session's integration's tokens and IP allow-list,
// from the services the console uses. A token is shown by its label and prefix: never its secret
// (which nobody can read again after it is issued) nor its hash.

export interface PortalToken extends ListedToken {
  /** The prefix of the token this one replaced (a rotation), while that one is listed. */
  replacesPrefix: string | null;
}

export interface PortalCredentials {
  tokens: PortalToken[];
  /** Addresses and networks the API accepts this integration's requests from; empty: any. */
  allowedNetworks: string[];
}

export async function portalCredentials(user: PortalUserSession): Promise<PortalCredentials> {
  const [tokens, integration] = await Promise.all([listTokens(user.integrationId), findIntegration(user.integrationId)]);
  if (!integration) throw new Error(`the session's integration ${user.integrationId} does not exist`);
  const replaced = new Map(tokens.filter((token) => token.replacedById !== null).map((token) => [token.replacedById!, token.tokenPrefix]));
  return {
    // Picked field by field, so a column added to the tokens' view later is not shown here unseen.
    tokens: tokens.map((token) => ({
      id: token.id,
      label: token.label,
      tokenPrefix: token.tokenPrefix,
      state: token.state,
      createdAt: token.createdAt,
      lastUsedAt: token.lastUsedAt,
      expiresAt: token.expiresAt,
      revokedAt: token.revokedAt,
      replacesPrefix: replaced.get(token.id) ?? null,
    })),
    allowedNetworks: integration.allowedNetworks,
  };
}
