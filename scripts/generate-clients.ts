// npm run clients:generate [-- --check]: the client libraries' generated parts, from the OpenAPI
// document the app serves (lib/surfaces/openapi/document.ts, GET /api/openapi.json): the TypeScript
// library's types (clients/typescript/src/openapi.ts, by openapi-typescript, pinned in package.json)
// and its package.json (its version is the document's). With --check
// nothing is written: it exits 1 naming each file that would change (CI and tests/clients run it).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generatedClientFiles } from '@/clients/generate';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });

const files = await generatedClientFiles();
const stale = files.filter((file) => !fs.existsSync(file.path) || fs.readFileSync(file.path, 'utf8') !== file.text);
if (values.check) {
  if (stale.length > 0) {
    for (const file of stale) console.error(`${path.relative(process.cwd(), file.path)} differs from what the app's OpenAPI document generates: run npm run clients:generate`);
    process.exit(1);
  }
  console.log(`clients: ${files.length} generated files match the app's OpenAPI document`);
} else {
  for (const file of stale) fs.writeFileSync(file.path, file.text);
  console.log(`clients: ${stale.length} of ${files.length} generated files written`);
}
