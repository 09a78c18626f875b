// What happens to an integration's tokens, for whoever reacts (the integrator's technical contact is
// told: lib/root/reactions.ts subscribes lib/reactions/integrator-notifications).
import type { IntegrationToken } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { domainEvent } from '@/lib/platform/events/domain-event';

interface IntegrationNamed {
  id: number;
  nombre: string;
}

export const tokenCreated = domainEvent<{ integration: IntegrationNamed; token: IntegrationToken; actor: Actor }>('credentials.token-created');
export const tokenRotated = domainEvent<{ integration: IntegrationNamed; replaced: IntegrationToken; token: IntegrationToken; actor: Actor }>('credentials.token-rotated');
export const tokenRevoked = domainEvent<{ integration: IntegrationNamed; token: IntegrationToken & { revokedAt: Date } }>('credentials.token-revoked');
