// Which test files use the run's database, read from their imports: vitest.config.mts runs the
// others only on the embedded database, since on PostgreSQL they would do exactly the same again.
// A file uses the run's database when it reaches tests/support/test-database.ts through its imports
// (its own, its helpers', the app and CLI harnesses'): that module is the only way a test gets the
// run's database (useTestDatabase), and the app and the CLI get theirs from it.
import fs from 'node:fs';
import path from 'node:path';

const TEST_DATABASE = path.join('tests', 'support', 'test-database.ts');
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];

/** The test files (relative to `root`, `/`-separated) that never reach tests/support/test-database.ts. */
export function filesUsingNoDatabase(root: string, testFiles: readonly string[]): string[] {
  // Every file the test files import, directly or not, with who imports it; then back from the
  // test database's module to everything that reaches it.
  const importedBy = new Map<string, string[]>();
  const pending = testFiles.map((file) => path.join(root, file));
  const seen = new Set(pending);
  while (pending.length > 0) {
    const file = pending.pop()!;
    for (const imported of importsOf(root, file)) {
      importedBy.set(imported, [...(importedBy.get(imported) ?? []), file]);
      if (!seen.has(imported)) {
        seen.add(imported);
        pending.push(imported);
      }
    }
  }
  const reaching = new Set<string>();
  const back = [path.join(root, TEST_DATABASE)];
  while (back.length > 0) {
    for (const importer of importedBy.get(back.pop()!) ?? []) {
      if (!reaching.has(importer)) {
        reaching.add(importer);
        back.push(importer);
      }
    }
  }
  return testFiles.filter((file) => !reaching.has(path.join(root, file)));
}

/** The repository's files `file` imports (relative and `@/` specifiers; packages are not followed). */
function importsOf(root: string, file: string): string[] {
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const [, specifier] of source.matchAll(SPECIFIERS)) {
    const base = specifier!.startsWith('@/') ? path.join(root, specifier!.slice(2)) : specifier!.startsWith('.') ? path.resolve(path.dirname(file), specifier!) : undefined;
    if (!base) continue;
    const resolved = EXTENSIONS.map((extension) => base + extension).find((candidate) => isFile(candidate));
    if (resolved) found.push(resolved);
  }
  return found;
}

function isFile(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}
