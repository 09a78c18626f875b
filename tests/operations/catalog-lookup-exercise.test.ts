// A catalog lookup is declared, not wired (issue 66, point 1): this adds a sixth, fake catalog to a
// copy of the tree the way lib/README.md ("How to add") tells a person to, and checks that the copy
// compiles and that the catalog is routable, flagged, limited, billed, recorded, in the OpenAPI
// document and in the records' filters (catalog-lookup-exercise/probe.ts, run in the copy).
// What a person writes, four files:
//   1. db/schema/lookups.ts: its name in LOOKUP_KINDS and CATALOG_LOOKUPS, its flag's column;
//   2. lib/vocabulary/lookups.ts: its path, limit, source, label, colour, operationId, summary;
//   3. lib/sources/catalogs.ts: its source operation, how its result is read, its 200's schema;
//   4. simulator/catalog.ts: its source stub (the operation and what it answers).
// What commands write from them: the migration (`npm run db:generate`: its SQL, and drizzle-kit's
// own db/migrations/meta) and the example answer (`npm run openapi:examples`).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve('.');
const PROBE = 'tests/operations/catalog-lookup-exercise/probe.ts';
let copy: string;

/** The declaration, file by file: each edit puts text before an anchor the file has once, or replaces it. */
type Edit = { before: string; insert: string } | { replace: string; with: string };
const DECLARATION: Record<string, Edit[]> = {
  'db/schema/lookups.ts': [
    { before: "] as const;\nexport type LookupKind", insert: ", 'widgets'" },
    { before: "] as const satisfies readonly LookupKind[];", insert: ", 'widgets'" },
    { before: '} as const satisfies Record<LookupKind, `is_${string}_enabled`>;', insert: "  widgets: 'is_widgets_enabled',\n" },
  ],
  'lib/vocabulary/lookups.ts': [
    {
      before: '} as const satisfies Record<LookupKind, LookupDeclaration>;',
      insert: `  widgets: {
    path: '/api/catalogos/widgets',
    limit: 'catalogs',
    source: 'catalog',
    label: 'Catálogo de widgets',
    colour: '#101828',
    operationId: 'lookupWidgets',
    summary: 'Los widgets de un contribuyente',
  },
`,
    },
  ],
  'lib/sources/catalogs.ts': [
    { replace: "import type { z } from 'zod';", with: "import { z } from 'zod';" },
    {
      before: '} as const satisfies Record<string, CatalogOperation>;',
      insert: `  widgets: {
    sourcePath: '/v2/consultas/widgets',
    sendsDateOfBirth: false,
    normalize: (result: unknown) => {
      const source = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
      return { nit: typeof source.nit === 'string' ? source.nit : null, widgets: typeof source.widgets === 'number' ? source.widgets : null };
    },
    success: z
      .object({ data: z.object({ nit: z.string().nullable(), widgets: z.int().nullable() }).strict().meta({ id: 'WidgetsResultado' }) })
      .strict()
      .meta({ id: 'WidgetsRespuesta', description: 'Éxito de POST /catalogos/widgets.' }),
  },
`,
    },
  ],
  'simulator/catalog.ts': [
    { before: '} as const;\n\n/** The provider', insert: "  widgets: '/v2/consultas/widgets',\n" },
    { before: '};\n\nfunction operationNamed', insert: '  widgets: (member) => ({ nit: member.nit, widgets: 7 }),\n' },
  ],
};

function declare(file: string): void {
  let text = fs.readFileSync(path.join(copy, file), 'utf8');
  for (const edit of DECLARATION[file]!) {
    const anchor = 'before' in edit ? edit.before : edit.replace;
    const at = text.indexOf(anchor);
    expect(at, `${file}: ${anchor}`).toBeGreaterThan(-1);
    expect(text.indexOf(anchor, at + 1), `${file}: ${anchor} only once`).toBe(-1);
    text = 'before' in edit ? text.slice(0, at) + edit.insert + text.slice(at) : text.slice(0, at) + edit.with + text.slice(at + anchor.length);
  }
  fs.writeFileSync(path.join(copy, file), text);
}

/** The tree as git sees it (tracked and new files, not ignored ones), without node_modules. */
function treeFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && fs.existsSync(path.join(root, file)));
}

function digest(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Every file under the copy that is new or differs from the tree's, but node_modules and build output. */
function changedFiles(): string[] {
  const walk = (relative: string): string[] =>
    fs.readdirSync(path.join(copy, relative), { withFileTypes: true }).flatMap((entry) => {
      const file = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) return ['node_modules', '.git', '.data', '.cache'].includes(entry.name) || entry.name.startsWith('.next') ? [] : walk(file);
      if (!entry.isFile()) return [];
      const original = path.join(ROOT, file);
      return fs.existsSync(original) && digest(original) === digest(path.join(copy, file)) ? [] : [file];
    });
  return walk('').sort();
}

function run(command: string, args: string[], options: { env?: Record<string, string>; unset?: string[] } = {}): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, PATH: `${path.join(copy, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };
  for (const name of options.unset ?? []) delete env[name];
  const child = spawnSync(command, args, {
    cwd: copy,
    encoding: 'utf8',
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: child.status, output: `${child.stdout}${child.stderr}` };
}

beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-exercise-'));
  for (const file of treeFiles(ROOT)) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(copy, file));
  }
  // The installed libraries, entry by entry: the copy's caches (.cache: the CLI's bundle, built
  // from the copy's sources; .vite: vitest's dependencies) stay its own instead of replacing the
  // tree's under a running suite.
  fs.mkdirSync(path.join(copy, 'node_modules'));
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '.bin' || !entry.startsWith('.')) fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(copy, 'node_modules', entry));
  }
  for (const file of Object.keys(DECLARATION)) declare(file);
  const migration = run('npx', ['drizzle-kit', 'generate', '--name', 'widgets_catalog']);
  expect(migration.status, migration.output).toBe(0);
  const examples = run('npx', ['tsx', 'scripts/write-openapi-examples.ts']);
  expect(examples.status, examples.output).toBe(0);
}, 120_000);

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('a sixth catalog lookup, declared', () => {
  it('is declared in the files lib/README.md lists under "A catalog lookup", and only those', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'lib/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('**A catalog lookup**'), readme.indexOf('The catalogs\' one route'));
    const listed = [...section.matchAll(/^\d\. `([^`]+)`/gm)].map((match) => match[1]);
    expect(listed).toEqual(Object.keys(DECLARATION));
    expect(section).toContain('`npm run db:generate`');
    expect(section).toContain('`npm run openapi:examples`');
  });

  it('takes four files a person writes, and two that commands write from them', () => {
    const changed = changedFiles();
    const migrationMeta = changed.filter((file) => file.startsWith('db/migrations/meta/'));
    expect(changed.filter((file) => !migrationMeta.includes(file))).toEqual([
      expect.stringMatching(/^db\/migrations\/\d{4}_widgets_catalog\.sql$/),
      'db/schema/lookups.ts',
      'lib/sources/catalogs.ts',
      'lib/surfaces/api/success-examples.json',
      'lib/vocabulary/lookups.ts',
      'simulator/catalog.ts',
    ]);
    expect(migrationMeta).toEqual([expect.stringMatching(/^db\/migrations\/meta\/\d{4}_snapshot\.json$/), 'db/migrations/meta/_journal.json']);
    const sql = fs.readFileSync(path.join(copy, changed[0]!), 'utf8');
    expect(sql).toContain(`ALTER TYPE "public"."lookup_kind" ADD VALUE 'widgets'`);
    expect(sql).toContain('ADD COLUMN "is_widgets_enabled" boolean DEFAULT false NOT NULL');
  });

  it('compiles: nothing else names the catalogs one by one', () => {
    const typecheck = run('npx', ['tsc', '--noEmit', '-p', '.']);
    expect(typecheck.output).toBe('');
    expect(typecheck.status).toBe(0);
  }, 180_000);

  it('is routable, flagged, limited, billed, recorded, documented and filtered by (the probe, in the copy)', () => {
    fs.copyFileSync(path.join(copy, PROBE), path.join(copy, PROBE.replace(/\.ts$/, '.test.ts')));
    // On the embedded database, with no build: the probe calls the route's own code.
    const probe = run('npx', ['vitest', 'run', PROBE.replace(/\.ts$/, '.test.ts')], {
      env: { GATEWAY_TEST_BUILD: 'skip', NO_COLOR: '1' },
      unset: ['DATABASE_URL', 'REDIS_URL', 'TEST_SPLIT_BY_DATABASE', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_ENV'],
    });
    expect(probe.output).toMatch(/Tests\s+\S*7 passed/);
    expect(probe.status, probe.output).toBe(0);
  }, 180_000);
});
