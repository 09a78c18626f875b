// npm run lint:layers
//   Checks every import of the product's code against the layer ladder (.dependency-cruiser.cjs)
//   and folders against cycles (scripts/layers-reporter.mjs). The two known-violation lists are
//   empty, and stay so: a list with an entry fails here, so no arrow gets back in by being written
//   down (there is no way to write one; mend the arrow instead). The pages that still read the core
//   or the flows directly are a third list, which only shrinks (scripts/surface-reads.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { knownList, mainsList, readsCoreOrFlows, surfaceReadProblems } from './surface-reads.mjs';

const ROOTS = ['lib', 'db', 'app', 'components', 'cli', 'proxy.ts', 'server.mjs', 'instrumentation.ts'];
const BASELINES = ['.dependency-cruiser-known-violations.json', '.folder-cycles-known.json'];
// Run on this script's own Node.js (the project's pinned one under npm), not the first on the PATH.
const depcruise = path.resolve('node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const config = ['--config', '.dependency-cruiser.cjs'];

const grown = BASELINES.filter((file) => JSON.parse(fs.readFileSync(file, 'utf8')).length > 0);
for (const file of grown) console.error(`✗ ${file} lists arrows: it must stay empty ([]). Mend each arrow (lib/README.md) instead of listing it.`);
const surfaceProblems = surfaceReadProblems({
  known: knownList(),
  mainKnown: mainsList(),
  readsDirectly: (file) => fs.existsSync(file) && readsCoreOrFlows(fs.readFileSync(file, 'utf8')),
});
for (const problem of surfaceProblems) console.error(`✗ ${problem}`);
const status = spawnSync(process.execPath, [depcruise, ...config, '--ignore-known', '--output-type', `plugin:${path.resolve('scripts/layers-reporter.mjs')}`, ...ROOTS], { stdio: 'inherit' }).status ?? 1;
process.exit(grown.length > 0 || surfaceProblems.length > 0 ? 1 : status);
