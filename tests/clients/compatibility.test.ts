// The client libraries' breaking-change check (clients/compatibility.ts, issue 69 point 4): a copy
// of the app's OpenAPI document with a field's type changed regenerates into a different library,
// and is refused under the same revision; with a new revision it generates, and the libraries'
// versions follow. Additions pass under the same revision.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { breakingChanges, documentSurface } from '@/clients/compatibility';
import { BreakingChangeError, generatedClientFiles } from '@/clients/generate';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';

type Doc = ReturnType<typeof buildOpenApiDocument>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a document's copy, edited by path

const current = () => structuredClone(buildOpenApiDocument('https://pasarela.example.com/api')) as Doc;
const schemas = (document: Doc) => document.components.schemas as Json;
const fileText = (file: string) => readFileSync(path.join(process.cwd(), file), 'utf8');

describe('the client libraries’ breaking-change check', () => {
  it('regenerates another library from a field whose type changed, and refuses it without a new revision', async () => {
    const changed = current();
    schemas(changed).Lote.properties.conteos.properties.total = { type: 'string' };
    const refused = await generatedClientFiles(changed).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BreakingChangeError);
    expect((refused as BreakingChangeError).problems).toEqual(['Lote.conteos.total is no longer integer (now string)']);

    changed.info.version = '2099-01-01';
    const files = await generatedClientFiles(changed);
    const types = files.find((file) => file.path.endsWith(path.join('typescript', 'src', 'openapi.ts')))!;
    expect(types.text).not.toBe(fileText('clients/typescript/src/openapi.ts'));
    expect(JSON.parse(files.find((file) => file.path.endsWith('package.json'))!.text).version).toBe('2099.1.1');
    expect(files.find((file) => file.path.endsWith('pyproject.toml'))!.text).toContain('version = "2099.1.1"');
  });

  it('names each kind of break: a removed field, operation or enum value, an answer’s field no longer always there, a request asking for more', () => {
    const before = documentSurface(current());
    const after = current();
    delete schemas(after).Cuenta.properties.tarifa;
    schemas(after).Lote.required = (schemas(after).Lote.required as string[]).filter((field) => field !== 'estado');
    schemas(after).Lote.properties.estado.enum = (schemas(after).Lote.properties.estado.enum as string[]).filter((value) => value !== 'cancelado');
    schemas(after).VigilanciaRequest.required = [...(schemas(after).VigilanciaRequest.required as string[]), 'constancias'];
    delete (after.paths as Json)['/lotes/{id}/cancelar'];
    expect(breakingChanges(before, documentSurface(after)).sort()).toEqual(
      [
        'Cuenta.tarifa was removed',
        'Lote.estado no longer takes "cancelado"',
        'Lote.estado is no longer always present',
        'VigilanciaRequest.constancias is now required',
        'the operation POST /lotes/{id}/cancelar was removed',
      ].sort(),
    );
  });

  it('lets additions through under the same revision: a new answer field, enum value, optional request field or operation', () => {
    const before = documentSurface(current());
    const after = current();
    schemas(after).Cuenta.properties.nueva = { type: 'string' };
    schemas(after).Lote.properties.estado.enum = [...(schemas(after).Lote.properties.estado.enum as string[]), 'archivado'];
    schemas(after).LoteRequest.properties.etiqueta = { type: 'string' };
    (after.paths as Json)['/lotes/{id}/archivar'] = { post: { operationId: 'archiveBulkJob', responses: {} } };
    expect(breakingChanges(before, documentSurface(after))).toEqual([]);
  });

  it('holds what the committed libraries rely on: the document the app serves now', () => {
    expect(JSON.parse(fileText('clients/openapi-surface.json'))).toEqual(documentSurface(current()));
  });
});
