// The server chunks are rewritten after `next build` so that V8 holds their source in one byte a
// character (scripts/latin1-server-code.mjs): the rewritten code must do exactly what it did.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { latin1Source } from './latin1-server-code.mjs';
import { ensureBuild } from './next-build';

const ABOVE_LATIN1 = /[^\u0000-\u00ff]/u;

/** What a script's last expression evaluates to, as JSON. */
const evaluated = (source: string) => JSON.stringify(vm.runInNewContext(source));

describe('a chunk rewritten in Latin-1', () => {
  it('computes what it computed: strings, templates, regular expressions, identifiers and comments', () => {
    const program = [
      '// a comment with an ellipsis… and an arrow →',
      '/* and a block — with • bullets */',
      'const π = 3.14, 𝑥 = 2, ключ = "значение";',
      'class Masked { #π = "••••"; read() { return this.#π; } }',
      'const quoted = ["…", \'’\', "—→←", "😀", "\\…", "\\\\…", "a\\\u2028b", "line\u2028separator"];',
      'const templated = `${π} … ${`nested ↔ ${ключ}`} ✓`;',
      'function returned() { return `after return…`; }',
      'const patterns = [/[…—]/.test("—"), /\\…/.test("…"), /😀/u.test("😀"), /^.$/u.test("😀"), /^.$/.test("😀"), /[😀]/u.test("😀"), new RegExp(/…+/g.source).test("……")];',
      'const spaced = 1\u3000+\u20002;',
      '({ π, 𝑥, ключ, masked: new Masked().read(), quoted, templated, returned: returned(), patterns, spaced, lengths: quoted.map((text) => text.length) })',
    ].join('\n');
    const rewritten = latin1Source(program);
    expect(rewritten).not.toBeNull();
    expect(rewritten).not.toMatch(ABOVE_LATIN1);
    expect(evaluated(rewritten!)).toBe(evaluated(program));
    // What the rewrite may not change shows in the figures: one character each, the 😀 two. (A
    // regular expression's `source` is the one difference: it spells the escape.)
    expect(JSON.parse(evaluated(rewritten!)).lengths).toEqual([1, 1, 3, 2, 1, 2, 2, 14]);
  });

  it('leaves a tagged template\'s text as it is, whose tag may read it raw, and says so', () => {
    expect(latin1Source('String.raw`a…b`')).toBeNull();
    expect(latin1Source('const tag = (strings) => strings.raw[0]; tag`x→y` + "→"')).toBeNull();
    // A template after an operator or a keyword is no tagged one's.
    expect(evaluated(latin1Source('const a = 1; a + `→${a}`')!)).toBe(JSON.stringify('1→1'));
  });

  it('returns a Latin-1 source as it was', () => {
    const source = 'const texto = "Consulta válida: señor Núñez, «vigente»";';
    expect(latin1Source(source)).toBe(source);
  });
});

describe('the build the tests run', { timeout: 600_000 }, () => {
  it('loads its start-up chunks in Latin-1: every chunk but those holding a tagged template\'s text', async () => {
    await ensureBuild();
    const distDir = process.env.NEXT_DIST_DIR || '.next';
    const serverDir = path.join(distDir, 'server');
    const twoByte = fs
      .readdirSync(serverDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => ABOVE_LATIN1.test(fs.readFileSync(file, 'utf8')));
    for (const file of twoByte) expect(latin1Source(fs.readFileSync(file, 'utf8')), file).toBeNull();
    // What server.mjs loads at every start: the instrumentation's chunks, and the ones they load.
    const named = (text: string) => [...text.matchAll(/"(server\/chunks\/[^"]+\.js)"/g)].map((match) => path.join(distDir, match[1]!));
    const entry = named(fs.readFileSync(path.join(serverDir, 'instrumentation.js'), 'utf8'));
    const startChunks = [...new Set([...entry, ...entry.flatMap((chunk) => named(fs.readFileSync(chunk, 'utf8')))])];
    expect(startChunks.length).toBeGreaterThan(entry.length);
    for (const chunk of startChunks) expect(fs.readFileSync(chunk, 'utf8'), chunk).not.toMatch(ABOVE_LATIN1);
  });
});
