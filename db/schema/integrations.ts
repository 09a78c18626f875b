import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { LOOKUP_KINDS, lookupFlagProperty, LOOKUP_FLAG_COLUMNS, type LookupFlagProperty, type LookupKind } from './lookups';

const flagColumn = (name: string) => boolean(name).notNull().default(false);

/** The flag columns, in the lookups' order, each under its camel-cased property. */
function lookupFlagColumns() {
  return Object.fromEntries(LOOKUP_KINDS.map((lookup) => [lookupFlagProperty(lookup), flagColumn(LOOKUP_FLAG_COLUMNS[lookup])])) as {
    [K in LookupKind as LookupFlagProperty<K>]: ReturnType<typeof flagColumn>;
  };
}

export const integrations = pgTable(
  'integrations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    nombre: text('nombre').notNull(),
    // The integration's tokens are in integration_tokens (several at once: rotation with overlap).
    // One flag per lookup, off until an administrator turns it on (db/schema/lookups.ts).
    ...lookupFlagColumns(),
    tariffCentavos: bigint('tariff_centavos', { mode: 'number' }).notNull().default(0),
    // Whether its lookups may ask for a constancia (x-constancia: true); off until an administrator turns it on.
    constanciasEnabled: boolean('constancias_enabled').notNull().default(false),
    // What each receipt costs, charged with its lookup as its own movement when the balance covers it
    // (docs/constancias.md, "What a receipt costs"); Q 0.00 by default.
    constanciaTariffCentavos: bigint('constancia_tariff_centavos', { mode: 'number' }).notNull().default(0),
    // How long the proofs of its receipts are kept (docs/constancias.md, "What we keep"): 5 to 15 years,
    // set by an administrator; a legal hold keeps every receipt and proof until it is lifted.
    constanciaRetentionYears: smallint('constancia_retention_years').notNull().default(5),
    constanciasLegalHold: boolean('constancias_legal_hold').notNull().default(false),
    // A cache of the ledger's sum, updated in the same statement as every ledger entry.
    balanceCentavos: bigint('balance_centavos', { mode: 'number' }).notNull().default(0),
    // Administrators are alerted when the balance falls below this (lib/reactions/alerts); null: the
    // deployment's ALERT_LOW_BALANCE_DEFAULT_CENTAVOS; 0: no low-balance alert, only at exhaustion.
    lowBalanceAlertCentavos: bigint('low_balance_alert_centavos', { mode: 'number' }),
    active: boolean('active').notNull().default(true),
    // The addresses and CIDR ranges its requests may come from (canonical text, lib/core/credentials/allow-list.ts); empty: anywhere.
    allowedNetworks: text('allowed_networks').array().notNull().default(sql`'{}'::text[]`),
    // What the integrator declared it uses the lookups for (Decreto 57-2008, art. 30: data adequate
    // for its purpose); shown on its console page and in its monthly statement. Empty: not declared yet.
    purpose: text('purpose').notNull().default(''),
    // Who the integrator is and whom to write to: null, not registered. The legal name and NIT are
    // its billing profile's (the receptor below: SAT's name for its NIT, or a person's CUI and name),
    // kept here in the profile's transaction for the lists and searches that read them, and copied
    // into each statement as it is issued. The contacts (lib/flows/integration-management/details-schemas.ts)
    // are where support and the integrator notifications write. NIT and phones are stored normalized.
    legalName: text('legal_name'),
    nit: text('nit'),
    technicalContactName: text('technical_contact_name'),
    technicalContactEmail: text('technical_contact_email'),
    technicalContactPhone: text('technical_contact_phone'),
    billingContactName: text('billing_contact_name'),
    billingContactEmail: text('billing_contact_email'),
    billingContactPhone: text('billing_contact_phone'),
    // Where the integrator's notifications are also posted, signed (lib/reactions/integrator-notifications);
    // null: e-mail only. The signing secret is sealed with the personal-data key (never shown again).
    notificationWebhookUrl: text('notification_webhook_url'),
    notificationWebhookSecretSealed: text('notification_webhook_secret_sealed'),
    // Whom its FEL invoices name (lib/flows/integration-management/receptor.ts): nit, cui or cf; null,
    // not set (invoiced to CF). A NIT's name is SAT's, from the certifier's lookup when it was saved;
    // a CUI's is the one the administrator typed. In clear like the NIT above: the certified XML the
    // operator must keep holds them too (docs/decisions.md, "The invoice receptor").
    receptorKind: text('receptor_kind'),
    receptorId: text('receptor_id'),
    receptorName: text('receptor_name'),
    receptorSetAt: timestamp('receptor_set_at', { withTimezone: true, mode: 'date' }),
    // The rest of its billing profile (lib/flows/invoicing/receptor.ts): the fiscal address its
    // statements print, and the address its invoices are e-mailed to besides the billing contact.
    billingAddress: text('billing_address'),
    invoiceEmail: text('invoice_email'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // The login header is compared lowercased, so two names differing only in case would clash.
    uniqueIndex('integrations_nombre_lower_unique').on(sql`lower(${table.nombre})`),
    check('integrations_balance_non_negative', sql`${table.balanceCentavos} >= 0`),
    check('integrations_tariff_non_negative', sql`${table.tariffCentavos} >= 0`),
    check('integrations_constancia_tariff_non_negative', sql`${table.constanciaTariffCentavos} >= 0`),
    check('integrations_constancia_retention_years', sql`${table.constanciaRetentionYears} between 5 and 15`),
    check('integrations_low_balance_alert_non_negative', sql`${table.lowBalanceAlertCentavos} >= 0`),
    check(
      'integrations_receptor_complete',
      sql`(${table.receptorKind} is null and ${table.receptorId} is null and ${table.receptorName} is null)
        or (${table.receptorKind} = 'cf' and ${table.receptorId} = 'CF' and ${table.receptorName} is null)
        or (${table.receptorKind} in ('nit', 'cui') and ${table.receptorId} is not null and ${table.receptorName} is not null)`,
    ),
    check(
      'integrations_notification_webhook_has_secret',
      sql`(${table.notificationWebhookUrl} is null) = (${table.notificationWebhookSecretSealed} is null)`,
    ),
  ],
);

export type Integration = typeof integrations.$inferSelect;
export type NewIntegration = typeof integrations.$inferInsert;
