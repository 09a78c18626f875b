// npm run lint:layers [-- --update-baseline]
//   Checks every import of the product's code against the layer ladder (.dependency-cruiser.cjs)
//   and folders against cycles (scripts/layers-reporter.mjs). --update-baseline rewrites both
//   known-violation lists from the tree as it is: for when arrows have been removed, never to let
//   a new one in.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOTS = ['lib', 'db', 'app', 'components', 'cli', 'proxy.ts', 'server.mjs', 'instrumentation.ts'];
// Run on this script's own Node.js (the project's pinned one under npm), not the first on the PATH.
const depcruise = path.resolve('node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const config = ['--config', '.dependency-cruiser.cjs'];
const run = (args, env = {}) =>
  spawnSync(process.execPath, [depcruise, ...args], { stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

if (process.argv.includes('--update-baseline')) {
  const status = run([...config, '--output-type', 'baseline', '--output-to', '.dependency-cruiser-known-violations.json', ...ROOTS]);
  if (status !== 0) process.exit(status);
  run([...config, '--ignore-known', '--output-type', `plugin:${path.resolve('scripts/layers-reporter.mjs')}`, ...ROOTS], {
    LAYERS_WRITE_FOLDER_BASELINE: '1',
  });
  process.exit(0);
}
process.exit(run([...config, '--ignore-known', '--output-type', `plugin:${path.resolve('scripts/layers-reporter.mjs')}`, ...ROOTS]));
