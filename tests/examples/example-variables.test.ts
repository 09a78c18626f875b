// Every example an integrator copies states BASE_URL (the environment's {base_url}, ending in /api),
// LOGIN and TOKEN before it uses them: docs/integrators.md (defined at its top), the scripts and the
// client under examples/, and the request samples /docs renders for every operation and language.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';
import { operationSamples, SAMPLE_LANGUAGES, SAMPLE_VARIABLES, type SampleLanguage } from '@/lib/surfaces/openapi/samples';

const BASE_URL = 'https://servicio.example/api';

/** How each language states a variable. */
const DEFINITION: Record<SampleLanguage | 'ts', (name: string) => RegExp> = {
  curl: (name) => new RegExp(`(^|\\s)(export\\s+)?${name}=|\\$\\{${name}:\\?`, 'm'),
  javascript: (name) => new RegExp(`const ${name} = `),
  ts: (name) => new RegExp(`const ${name} = `),
  python: (name) => new RegExp(`^${name} = `, 'm'),
  csharp: (name) => new RegExp(`const string ${name} = `),
};

/** The variables of SAMPLE_VARIABLES that `text` uses before (or without) stating them. */
function usedBeforeStated(text: string, language: keyof typeof DEFINITION): string[] {
  return SAMPLE_VARIABLES.filter((name) => {
    const definition = DEFINITION[language](name).exec(text);
    const first = new RegExp(`\\b${name}\\b`).exec(text);
    if (!first) return false;
    return !definition || first.index < definition.index || first.index > definition.index + definition[0].length;
  });
}

describe('the variables of the examples', () => {
  it('docs/integrators.md states BASE_URL, LOGIN and TOKEN before its first example, and its shell examples use no variable it has not stated', () => {
    const guide = fs.readFileSync('docs/integrators.md', 'utf8');
    const blocks = [...guide.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((match) => ({ language: match[1], code: match[2]! }));
    const first = blocks[0]!;
    expect(first.language).toBe('sh');
    expect(usedBeforeStated(first.code, 'curl')).toEqual([]);
    for (const name of SAMPLE_VARIABLES) expect(first.code, name).toMatch(DEFINITION.curl(name));
    expect(first.code).toMatch(/^BASE_URL='https:\/\/[^']+\/api'/m);
    const stated = new Set<string>();
    for (const { language, code } of blocks.filter((block) => block.language === 'sh')) {
      for (const line of code.split('\n')) {
        for (const [, name] of line.matchAll(/(?:^|[\s;(])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/g)) stated.add(name!);
        for (const [, name] of line.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) {
          expect(stated.has(name!), `${language}: «${line.trim()}» uses $${name} before the guide states it`).toBe(true);
        }
      }
    }
    const typescript = blocks.filter((block) => block.language === 'ts' && block.code.includes('TaxpayerLookupClient('));
    expect(typescript.length).toBeGreaterThan(0);
    for (const { code } of typescript) expect(usedBeforeStated(code, 'ts')).toEqual([]);
    for (const { code } of typescript) expect(code).toContain('baseUrl: BASE_URL, login: LOGIN, token: TOKEN');
  });

  it('the scripts and the client under examples/ state them before using them', () => {
    // Every script there, so a new one is checked without being listed.
    const scripts = fs.readdirSync('examples').filter((name) => name.endsWith('.sh'));
    expect(scripts).toEqual(expect.arrayContaining(['lote.sh', 'vigilancia.sh', 'saldo.sh', 'conciliacion.sh', 'agregar-a-vigilancia.sh']));
    for (const script of scripts.map((name) => `examples/${name}`)) {
      const code = fs.readFileSync(script, 'utf8');
      for (const name of SAMPLE_VARIABLES) expect(code, `${script}: ${name}`).toMatch(new RegExp(`\\$\\{${name}:\\?`));
      expect(usedBeforeStated(code, 'curl'), script).toEqual([]);
    }
    const client = fs.readFileSync('examples/taxpayer-lookup-client.ts', 'utf8');
    for (const name of SAMPLE_VARIABLES) expect(client, name).toMatch(DEFINITION.ts(name));
    expect(usedBeforeStated(client, 'ts')).toEqual([]);
  });

  it("every request sample of /docs, in every language, states them first and calls BASE_URL's address", () => {
    const document = buildOpenApiDocument(BASE_URL);
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>).map(([method, operation]) => ({
        path: path.replace('{id}', 'lote_0123456789abcdef0123'),
        method: method.toUpperCase(),
        body: operation.requestBody?.content['application/json']?.example,
      })),
    );
    const calls = operations.filter(({ method }) => method === 'GET' || method === 'POST');
    expect(calls.length).toBeGreaterThanOrEqual(5);
    for (const { path, method, body } of calls) {
      const samples = operationSamples(BASE_URL, path, { method: method as 'GET' | 'POST', body });
      for (const { key } of SAMPLE_LANGUAGES) {
        const sample = samples[key];
        expect(usedBeforeStated(sample, key), `${method} ${path} (${key})`).toEqual([]);
        for (const name of SAMPLE_VARIABLES) expect(sample, `${method} ${path} (${key}): ${name}`).toMatch(DEFINITION[key](name));
        expect(sample, `${method} ${path} (${key})`).toContain(BASE_URL);
        expect(sample.split(BASE_URL).length - 1, `${method} ${path} (${key}): the address once, in BASE_URL`).toBe(1);
        expect(sample, `${method} ${path} (${key})`).toMatch(new RegExp(`BASE_URL\\}?${path.replaceAll('/', '\\/')}`));
      }
    }
  });
});
