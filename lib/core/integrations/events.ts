// What an administrator or an integrator changed about an integration, for whoever reacts (the
// integrator's contacts are told: lib/root/reactions.ts subscribes lib/reactions/integrator-notifications).
import type { Integration } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { domainEvent } from '@/lib/platform/events/domain-event';

/** Lookups turned on or off, named as the console names them. */
export const lookupsChanged = domainEvent<{ integration: Integration; enabled: string[]; disabled: string[]; changedAt: Date }>('integrations.lookups-changed');
export const tariffChanged = domainEvent<{ integration: Integration; previousCentavos: number; tariffCentavos: number; changedAt: Date }>('integrations.tariff-changed');
export const allowListChanged = domainEvent<{ integration: Integration; allowedNetworks: string[]; changedAt: Date; actor: Actor }>('integrations.allow-list-changed');
