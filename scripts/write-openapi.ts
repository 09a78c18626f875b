// npm run openapi:lint: writes the OpenAPI document to .data/openapi.json and lints it with Redocly.
// The document is generated (lib/surfaces/openapi/document.ts); {base_url} stays a placeholder here.
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDirectory } from '@/lib/platform/files/private-directory';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';

const target = path.resolve(process.argv[2] ?? '.data/openapi.json');
ensurePrivateDirectory(path.dirname(target));
fs.writeFileSync(target, `${JSON.stringify(buildOpenApiDocument('https://gateway.example.com/api'), null, 2)}\n`);
console.log(`OpenAPI document written to ${path.relative(process.cwd(), target)}`);
