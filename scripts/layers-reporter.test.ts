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
      cruised('lib/core/billing/ledger.ts', 'lib/core/records/list.ts'),
      cruised('lib/core/records/list.ts', 'lib/reactions/alerts/outbox.ts'),
      cruised('lib/reactions/alerts/outbox.ts', 'lib/core/billing/ledger.ts', 'lib/platform/logging/logger.ts'),
      cruised('lib/platform/logging/logger.ts'),
    ]);
    expect([...arrows.keys()].sort()).toEqual(['lib/core/billing → lib/core/records', 'lib/core/records → lib/reactions/alerts', 'lib/reactions/alerts → lib/core/billing']);
  });

  it('counts a file loose in a rung as the rung\'s own directory, so a loop through it is found', () => {
    // As lib/platform/env.ts closed one with platform/http and platform/logging (issue 66).
    const arrows = folderArrowsOnCycles([
      cruised('lib/platform/env.ts', 'lib/platform/logging/logger.ts'),
      cruised('lib/platform/logging/logger.ts', 'lib/platform/http/context.ts'),
      cruised('lib/platform/http/context.ts', 'lib/platform/env.ts'),
    ]);
    expect([...arrows.keys()].sort()).toEqual(['lib/platform → lib/platform/logging', 'lib/platform/http → lib/platform', 'lib/platform/logging → lib/platform/http']);
  });

  it('fails on a folder loop that is not in the known list, naming one import that makes it', () => {
    const report = layersReport(
      result([cruised('lib/core/zz-new/a.ts', 'lib/core/zz-other/b.ts'), cruised('lib/core/zz-other/b.ts', 'lib/core/zz-new/a.ts')]),
    );
    expect(report.exitCode).toBe(1);
    expect(report.output).toContain('folder cycle: lib/core/zz-new → lib/core/zz-other closes a loop between folders (for instance lib/core/zz-new/a.ts → lib/core/zz-other/b.ts)');
  });

  it('fails on a file of lib/ that sits on no rung', () => {
    const report = layersReport(result([cruised('lib/helpers/misc.ts'), cruised('lib/core/billing/ledger.ts')]));
    expect(report.exitCode).toBe(1);
    expect(report.output).toContain('✗ lib/helpers/misc.ts is on no rung: lib/ holds only platform, providers, core, flows, reactions, surfaces, root, contract, sources, vocabulary, presentation');
    expect(report.output).not.toContain('lib/core/billing/ledger.ts is on no rung');
  });

  it('fails on an arrow against the ladder and passes a tree with none', () => {
    const broken = layersReport(
      result([cruised('lib/platform/settings/env.ts')], [{ rule: { name: 'platform-is-the-floor', severity: 'error' }, from: 'lib/platform/settings/env.ts', to: 'lib/flows/portal-identity/roles.ts' }]),
    );
    expect(broken.exitCode).toBe(1);
    expect(broken.output).toContain('✗ platform-is-the-floor: lib/platform/settings/env.ts → lib/flows/portal-identity/roles.ts');
    expect(layersReport(result([cruised('lib/platform/settings/env.ts')])).exitCode).toBe(0);
  });
});
