// The image's one-shot commands as single modules, bundled as the CLI bundles itself (cli/bundle.mjs):
// `migrate` (scripts/migrate.ts, what `npm run db:migrate` runs) and `cli` (cli/main.ts). The image
// has neither tsx nor esbuild, so they are bundled here, on the build machine.
// Usage: node deploy/image/bundle-commands.mjs OUT_DIR
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BANNER, EXTERNAL } from '../../cli/bundle.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = path.resolve(process.argv[2] ?? '');

await build({
  absWorkingDir: ROOT,
  entryPoints: { migrate: 'scripts/migrate.ts', cli: 'cli/main.ts' },
  outdir: outDir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // Each command its own file: no chunks shared between them.
  splitting: false,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  tsconfig: 'tsconfig.json',
  external: EXTERNAL,
  banner: { js: BANNER },
  logLevel: 'warning',
});
