// npm run cli -- <command> [arguments] [--json]: cli/main.ts, from its bundle (cli/bundle.mjs).
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureCliBundle } from './bundle.mjs';

const bundle = await ensureCliBundle();
// V8 keeps the bundle's compiled code beside it: the 4 MB module is compiled once per build, not per command.
module.enableCompileCache(path.join(path.dirname(bundle), 'compiled'));
await import(pathToFileURL(bundle).href);
