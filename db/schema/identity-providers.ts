import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { integrations } from './integrations';

// Each integrator's own identity provider for the portal (docs/sso.md, "The portal"): its owners
// name their company's OpenID Provider, and the members whose e-mail is of the company's domain
// sign in through it (lib/flows/portal-identity/sso.ts). One per integration.
export const integrationIdentityProviders = pgTable(
  'integration_identity_providers',
  {
    integrationId: integer('integration_id')
      .primaryKey()
      .references(() => integrations.id),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    // Sealed with the personal-data key, purpose identity_provider_client_secret; resealed at a rotation.
    clientSecretSealed: text('client_secret_sealed').notNull(),
    /** The e-mail domain that picks this provider on the sign-in page; one integration per domain. */
    emailDomain: text('email_domain').notNull(),
    roleClaim: text('role_claim').notNull().default('groups'),
    /** The claim's values for each portal role: { propietario: [...], desarrollador: [...], facturacion: [...] }. */
    roleValues: jsonb('role_values').$type<Record<string, string[]>>().notNull(),
    /** Members who keep their password while the provider is on (to reach the portal when it is down). */
    breakGlassEmails: jsonb('break_glass_emails').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('integration_identity_providers_domain_unique').on(sql`lower(${table.emailDomain})`)],
);

export type IntegrationIdentityProvider = typeof integrationIdentityProviders.$inferSelect;

// A sign-in through a provider under way, from "Entrar con la cuenta de su empresa" to the
// provider's return: keyed by the state sent (its SHA-256), used once, ten minutes at most. The
// browser holds a random binding in a cookie whose hash is kept here, so a return link made in
// another browser (login CSRF) opens nothing.
export const identityProviderSignIns = pgTable(
  'identity_provider_sign_ins',
  {
    stateHash: text('state_hash').primaryKey(),
    bindingHash: text('binding_hash').notNull(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    // The PKCE verifier, sealed (identity_provider_sign_in): its challenge went to the provider.
    codeVerifierSealed: text('code_verifier_sealed').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('identity_provider_sign_ins_expires_idx').on(table.expiresAt)],
);
