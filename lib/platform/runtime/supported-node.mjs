// Which Node.js the gateway runs on: the range in package.json's `engines.node`, checked when a
// process of ours starts. Plain JavaScript, not TypeScript: server.mjs (npm start) imports it
// before anything else, with no compiler in between.
//
// Why the range is what it is, and how the project pins its runtime: docs/decisions.md, "The
// runtime: Node.js 24 LTS, pinned in the project".
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

/**
 * The project's package.json: the nearest one above this module, found as Node.js finds a package's
 * scope. This file runs from lib/platform/runtime, and bundled into the CLI from its cache (cli/bundle.mjs).
 */
function projectPackageJson() {
  for (let directory = path.dirname(fileURLToPath(import.meta.url)); ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, 'package.json');
    if (fs.existsSync(candidate)) return JSON.parse(fs.readFileSync(candidate, 'utf8'));
    if (path.dirname(directory) === directory) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
}

/** The `engines.node` range of package.json, such as ">=24.11.0". */
export const SUPPORTED_NODE_RANGE = projectPackageJson().engines.node;

/**
 * Why this process must not start on `version`, or undefined when it is a supported release.
 * The message names what runs and what is needed, and how the project's own scripts get it.
 */
export function unsupportedNodeMessage(version = process.versions.node) {
  if (semver.satisfies(version, SUPPORTED_NODE_RANGE)) return undefined;
  return (
    `cannot start: this is Node.js v${version}, and the gateway runs only on Node.js ${SUPPORTED_NODE_RANGE} ` +
    '(a supported LTS line; package.json "engines"). `npm install` puts the pinned runtime in node_modules, and ' +
    '`npm start`, `npm run dev`, `npm test` and `npm run cli` run on it; to start server.mjs by hand, use ' +
    '`node_modules/.bin/node` or a Node.js of that range.'
  );
}

/**
 * Whether AsyncLocalStorage runs on AsyncContextFrame (the default from Node.js 24) rather than
 * on async hooks, which tax every promise a request creates (docs/performance.md, "Where it stands: Node.js 24 and undici").
 * Node.js says so nowhere public; the async-hooks implementation is the one with `_propagate`.
 * Logged at start, so a `--no-async-context-frame` left in NODE_OPTIONS shows.
 */
export function asyncContextFrameEnabled() {
  return !('_propagate' in AsyncLocalStorage.prototype);
}

/** What the start lines say about the runtime. */
export function runtimeDescription() {
  return { node: process.version, asyncContextFrame: asyncContextFrameEnabled() };
}
