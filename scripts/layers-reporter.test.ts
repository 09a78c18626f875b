import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs reporter that dependency-cruiser loads; it ships no types.
import layersReport, { folderArrowsOnCycles } from './layers-reporter.mjs';

const cruised = (source: string, ...imports: string[]) => ({
  source,
  dependencies: imports.map((resolved) => ({ resolved, coreModule: false, couldNotResolve: false })),
});
const result = (modules: ReturnType<typeof cruised>[], violations: unknown[] = []) => ({
  modules,
  summary: { violations, ignore: 0, totalCruised: modules.length },
});

describe('the layers reporter', () => {
  it('finds the arrows between folders that close a loop, through a third folder too', () => {
    const arrows = folderArrowsOnCycles([
      cruised('lib/billing/ledger.ts', 'lib/records/list.ts'),
      cruised('lib/records/list.ts', 'lib/alerts/outbox.ts'),
      cruised('lib/alerts/outbox.ts', 'lib/billing/ledger.ts', 'lib/logging/logger.ts'),
      cruised('lib/logging/logger.ts'),
    ]);
    expect([...arrows.keys()].sort()).toEqual(['lib/alerts → lib/billing', 'lib/billing → lib/records', 'lib/records → lib/alerts']);
  });

  it('fails on a folder loop that is not in the known list, naming one import that makes it', () => {
    const report = layersReport(
      result([cruised('lib/zz-new/a.ts', 'lib/zz-other/b.ts'), cruised('lib/zz-other/b.ts', 'lib/zz-new/a.ts')]),
    );
    expect(report.exitCode).toBe(1);
    expect(report.output).toContain('folder cycle: lib/zz-new → lib/zz-other closes a loop between folders (for instance lib/zz-new/a.ts → lib/zz-other/b.ts)');
  });

  it('fails on an arrow against the ladder and passes a tree with none', () => {
    const broken = layersReport(
      result([cruised('lib/env.ts')], [{ rule: { name: 'platform-is-the-floor', severity: 'error' }, from: 'lib/env.ts', to: 'lib/portal-identity/roles.ts' }]),
    );
    expect(broken.exitCode).toBe(1);
    expect(broken.output).toContain('✗ platform-is-the-floor: lib/env.ts → lib/portal-identity/roles.ts');
    expect(layersReport(result([cruised('lib/env.ts')])).exitCode).toBe(0);
  });
});
