// Whom a top-up's invoice names. For now the integration's registered details (its NIT or CUI and
// legal name), else consumidor final; the receptor form replaces this one function.
import type { Integration } from '@/db/schema';
import { isValidClassicNit, isValidCui } from '@/lib/platform/guatemala/identifiers';
import type { Receptor } from '@/lib/providers/fel/document';

export function receptorOfIntegration(integration: Pick<Integration, 'nit' | 'legalName'>): Receptor {
  const { nit, legalName } = integration;
  if (!nit || !legalName?.trim()) return { kind: 'cf' };
  if (isValidClassicNit(nit)) return { kind: 'nit', nit, name: legalName.trim() };
  if (isValidCui(nit)) return { kind: 'cui', cui: nit, name: legalName.trim() };
  return { kind: 'cf' };
}
