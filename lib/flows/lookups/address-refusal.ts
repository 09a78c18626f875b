import type { LookupKind } from '@/db/schema';
import { noteRefusedAddress } from '@/lib/core/credentials/refused-addresses';
import { countRefusal } from '@/lib/core/rollups/refusals';

/**
 * A request with an integration's right credentials from outside its allow-list: counted against
 * the integration under its own reason, with the address noted for its page (both in memory,
 * written in batches), never recorded as a query.
 */
export function refuseAddress(refusal: { integrationId: number; address: string | null }, lookup: LookupKind): void {
  countRefusal({ integrationId: refusal.integrationId, lookup, reason: 'ip_not_allowed' });
  noteRefusedAddress(refusal.integrationId, refusal.address ?? 'desconocida', Date.now());
}
