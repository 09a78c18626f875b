// npm run clients:generate [-- --check]: the client libraries' generated parts, from the OpenAPI
// document the app serves (lib/surfaces/openapi/document.ts, GET /api/openapi.json): the TypeScript
// library's types, the Python and Java libraries' models, every library's table of the contract's
// messages, each library's package description (its version is the document's) and
// clients/openapi-surface.json, what the libraries of this revision rely on.
// A change that would break them under the same revision is refused (clients/compatibility.ts).
// With --check nothing is written: it exits 1 naming each file that would change (tests/clients).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BreakingChangeError, GENERATED_DIRECTORIES, generatedClientFiles } from '@/clients/generate';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

let files;
try {
  files = await generatedClientFiles();
} catch (error) {
  if (!(error instanceof BreakingChangeError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const stale = files.filter((file) => !fs.existsSync(file.path) || fs.readFileSync(file.path, 'utf8') !== file.text);
// A model the document no longer has leaves its file behind in a directory the generator owns.
const generated = new Set(files.map((file) => file.path));
const leftOver = GENERATED_DIRECTORIES.flatMap((directory) => (fs.existsSync(directory) ? fs.readdirSync(directory).map((name) => path.join(directory, name)) : [])).filter((file) => !generated.has(file));
if (values.check) {
  if (stale.length > 0 || leftOver.length > 0) {
    for (const file of stale) console.error(`${path.relative(process.cwd(), file.path)} differs from what the app's OpenAPI document generates: run npm run clients:generate`);
    for (const file of leftOver) console.error(`${path.relative(process.cwd(), file)} is no longer generated from the app's OpenAPI document: run npm run clients:generate`);
    process.exit(1);
  }
  console.log(`clients: ${files.length} generated files match the app's OpenAPI document`);
} else {
  for (const file of stale) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    fs.writeFileSync(file.path, file.text);
  }
  for (const file of leftOver) fs.rmSync(file);
  console.log(`clients: ${stale.length} of ${files.length} generated files written${leftOver.length > 0 ? `, ${leftOver.length} no longer generated removed` : ''}`);
}
