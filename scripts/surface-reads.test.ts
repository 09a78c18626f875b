import { describe, expect, it } from 'vitest';
import { listedPathPatterns, readsCoreOrFlows, surfaceReadProblems } from './surface-reads.mjs';

describe('the pages that still read the core or the flows directly', () => {
  it('are told by a value imported from lib/core or lib/flows, not by a type named', () => {
    expect(readsCoreOrFlows("import { listIntegrations } from '@/lib/flows/integration-management/service';")).toBe(true);
    expect(readsCoreOrFlows("import {\n  listLatestRecords,\n  type RecordRow,\n} from '@/lib/core/records/list';")).toBe(true);
    expect(readsCoreOrFlows("import type { ActionResult } from '@/lib/flows/auth/action';")).toBe(false);
    expect(readsCoreOrFlows("import { integrationsPage } from '@/lib/surfaces/console/integrations';")).toBe(false);
  });

  it('match their own file only, brackets and parentheses included', () => {
    const [pattern] = listedPathPatterns(['app/admin/(console)/integraciones/[id]/page.tsx']);
    expect(new RegExp(pattern!).test('app/admin/(console)/integraciones/[id]/page.tsx')).toBe(true);
    expect(new RegExp(pattern!).test('app/admin/(console)/integraciones/[id]/page.tsx.bak')).toBe(false);
    expect(new RegExp(pattern!).test('app/admin/console/integraciones/x/page.tsx')).toBe(false);
  });

  it('only shrink: a page that reads through its surface leaves the list, and none is added against main', () => {
    const readsDirectly = (file: string) => file !== 'app/portal/b.tsx';
    expect(surfaceReadProblems({ known: ['app/admin/a.tsx'], mainKnown: ['app/admin/a.tsx', 'app/portal/b.tsx'], readsDirectly })).toEqual([]);
    expect(surfaceReadProblems({ known: ['app/admin/a.tsx', 'app/portal/b.tsx'], mainKnown: null, readsDirectly })).toEqual([
      'app/portal/b.tsx reads through its surface now (or is gone): remove it from .surface-reads-known.json',
    ]);
    expect(surfaceReadProblems({ known: ['app/admin/a.tsx', 'app/admin/c.tsx'], mainKnown: ['app/admin/a.tsx'], readsDirectly })).toEqual([
      'app/admin/c.tsx was added to .surface-reads-known.json, which only shrinks: read through lib/surfaces instead',
    ]);
  });
});
