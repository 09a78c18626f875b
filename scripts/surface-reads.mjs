// The ratchet on pages that still read the core or the flows directly, instead of through their
// surface's view models and actions (lib/surfaces/console, lib/surfaces/portal). The rule itself is
// in .dependency-cruiser.cjs; its exceptions are the files listed in .surface-reads-known.json, and
// the list only shrinks: a page that no longer reads directly must leave it, and a page added to it
// (against main's list) fails `npm run lint:layers`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export const SURFACE_READS_KNOWN = '.surface-reads-known.json';

/** Whether a page's source imports a value (not only types) from lib/core or lib/flows. */
export function readsCoreOrFlows(source) {
  return /^(?:import|export) (?!type )[^;]*?from '@\/lib\/(?:core|flows)\//m.test(source);
}

/** The listed files as a dependency-cruiser path pattern each (the rule's exceptions). */
export function listedPathPatterns(files) {
  return files.map((file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/**
 * What is wrong with the list: a file listed that no longer reads directly (or no longer exists)
 * must leave it; a file not in main's list must not be added (mend the page instead).
 */
export function surfaceReadProblems({ known, mainKnown, readsDirectly }) {
  const problems = [];
  for (const file of known) {
    if (!readsDirectly(file)) problems.push(`${file} reads through its surface now (or is gone): remove it from ${SURFACE_READS_KNOWN}`);
  }
  if (mainKnown) {
    const before = new Set(mainKnown);
    for (const file of known) if (!before.has(file)) problems.push(`${file} was added to ${SURFACE_READS_KNOWN}, which only shrinks: read through lib/surfaces instead`);
  }
  return problems;
}

/** The list as main has it, when this is a clone that knows main (null otherwise: nothing to compare). */
export function mainsList() {
  try {
    return JSON.parse(execFileSync('git', ['show', `origin/main:${SURFACE_READS_KNOWN}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return null;
  }
}

export function knownList() {
  return JSON.parse(fs.readFileSync(SURFACE_READS_KNOWN, 'utf8'));
}
