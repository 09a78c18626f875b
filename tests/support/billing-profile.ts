// An integration's billing profile registered for a test that does not run the certifier: the
// receptor is saved through the product's own path (lib/flows/invoicing/receptor.ts) with a registry
// that knows this one NIT by this name, so its razón social and NIT read as the profile's everywhere.
import type { Actor } from '@/lib/core/audit/audit';
import { setIntegrationReceptor } from '@/lib/flows/invoicing/receptor';
import type { FelCertifier } from '@/lib/providers/fel/certifier';
import { normalizeNit } from '@/lib/platform/guatemala/identifiers';

export async function registerBillingProfile(actor: Actor, integrationId: number, profile: { nit: string; name: string }): Promise<void> {
  const registry = { lookupNitName: async (nit: string) => (nit === normalizeNit(profile.nit) ? { kind: 'name', name: profile.name } : { kind: 'not_found' }) } as unknown as FelCertifier;
  const saved = await setIntegrationReceptor(actor, integrationId, { kind: 'nit', identifier: profile.nit, shownName: profile.name }, registry);
  if (!saved.ok) throw new Error(saved.error.message);
}
