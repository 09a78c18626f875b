import {
  IDENTITY_PROVIDER_MANAGERS,
  identityProviderErrorField,
  identityProviderRedirectUris,
  portalPublicOrigin,
  readIntegrationIdentityProvider,
  removeIntegrationIdentityProvider,
  saveIntegrationIdentityProvider,
  type IdentityProviderError,
  type IdentityProviderField,
  type IdentityProviderInput,
  type IdentityProviderRedirectUris,
  type IntegrationIdentityProviderView,
} from '@/lib/flows/portal-identity/identity-provider';
import type { PortalUserSession } from './session';

// "Equipo", «Inicio de sesión con la cuenta de la empresa»: the owner names the company's own
// OpenID Provider (lib/flows/portal-identity/identity-provider.ts), always for the session's
// integration, and reads the portal's addresses to register there.

export { IDENTITY_PROVIDER_MANAGERS, identityProviderErrorField };
export type { IdentityProviderError, IdentityProviderField, IdentityProviderInput, IdentityProviderRedirectUris, IntegrationIdentityProviderView };

/** The session's integration's provider, without its secret; null when it has none. */
export function portalIdentityProvider(user: PortalUserSession): Promise<IntegrationIdentityProviderView | null> {
  return readIntegrationIdentityProvider(user.integrationId);
}

/** The portal's addresses the owner registers at the provider, under the service's public URL. */
export function portalIdentityProviderRedirectUris(): IdentityProviderRedirectUris {
  return identityProviderRedirectUris(portalPublicOrigin());
}

/** The owner saves the provider of the session's integration (checked against its discovery document first). */
export function savePortalIdentityProvider(owner: PortalUserSession, input: IdentityProviderInput) {
  return saveIntegrationIdentityProvider(owner.actor, owner.integrationId, input);
}

/** The owner removes the provider of the session's integration. */
export function removePortalIdentityProvider(owner: PortalUserSession) {
  return removeIntegrationIdentityProvider(owner.actor, owner.integrationId);
}
