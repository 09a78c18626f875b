// Whom a top-up's invoice names: the receptor set on the integration (its NIT with SAT's name, a CUI
// with a name, or CF), else consumidor final. Set through the console's form, which checks it and
// takes a NIT's name from the certifier's lookup (lib/flows/integration-management/receptor.ts).
import type { Integration } from '@/db/schema';
import type { Receptor } from '@/lib/providers/fel/document';

export type IntegrationReceptorColumns = Pick<Integration, 'receptorKind' | 'receptorId' | 'receptorName'>;

export function receptorOfIntegration(integration: IntegrationReceptorColumns): Receptor {
  const { receptorKind: kind, receptorId: id, receptorName: name } = integration;
  if (kind === 'nit' && id && name) return { kind: 'nit', nit: id, name };
  if (kind === 'cui' && id && name) return { kind: 'cui', cui: id, name };
  return { kind: 'cf' };
}
