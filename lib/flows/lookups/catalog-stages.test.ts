import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTHENTICATED_CATALOG_STAGES, CATALOG_STAGES } from './catalog-stages';

// What a stage would otherwise repeat (timing, refusal counts, traces, notes on the log line, the
// balance's event) is done around the stages (lib/flows/lookups/stages.ts and catalog.ts's end). A
// stage still leaves its pipeline for what is its own work's: the journal that keeps a record the
// database did not take, the seals of the identifiers, a log line for an error, the holds gauge.
const CROSS_CUTTING_CALLS = [
  /\bcountRefusal\(/g,
  /\brefuseAddress\(/g,
  /\btraceUnserved\(/g,
  /\btraceReplay\(/g,
  /\btimeStage(Around)?\(/g,
  /\bnoteLookup\(/g,
  /\bmetrics\(\)/g,
  /\blogger\(/g,
  /\bbalanceSeen\./g,
  /\bkeepRecord\(/g,
  /\bnew LookupSeals\(/g,
];

describe('the catalog lookup’s stages', () => {
  it('leave their pipeline at most 8 times for cross-cutting work', () => {
    const source = readFileSync(path.join(import.meta.dirname, 'catalog-stages.ts'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    const exits = CROSS_CUTTING_CALLS.reduce((count, call) => count + (source.match(call)?.length ?? 0), 0);
    expect(exits).toBeGreaterThan(0);
    expect(exits).toBeLessThanOrEqual(8);
  });

  it('check credentials first, then run the same stages a bulk item runs', () => {
    expect(CATALOG_STAGES.slice(1)).toEqual(AUTHENTICATED_CATALOG_STAGES);
    expect(CATALOG_STAGES[0]?.timedAs).toBe('auth');
    expect(AUTHENTICATED_CATALOG_STAGES.map((stage) => stage.timedAs).filter(Boolean)).toEqual(['idempotency', 'hold', 'source', 'settle']);
  });
});
