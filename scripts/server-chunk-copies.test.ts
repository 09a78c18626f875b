// A server chunk Turbopack wrote several times is kept once (scripts/server-chunk-copies.mjs): its
// copies become links that Node loads as the one module it already has.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuild } from './next-build';
import { chunkKind, shareServerChunkCopies } from './server-chunk-copies.mjs';

const require = createRequire(import.meta.url);
const chunk = (body: string, name: string) => `module.exports=[1,(e)=>{${body}}];\n//# sourceMappingURL=${name}.map\n`;

describe('copies of a server chunk', () => {
  it('become links to the first, which Node loads once, and other chunks stay as they were', () => {
    const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chunk-copies-'));
    const chunks = path.join(distDir, 'server', 'chunks');
    fs.mkdirSync(path.join(chunks, 'ssr'), { recursive: true });
    fs.writeFileSync(path.join(chunks, '_a.js'), chunk('return 1', '_a.js'));
    fs.writeFileSync(path.join(chunks, '_b.js'), chunk('return 1', '_b.js'));
    fs.writeFileSync(path.join(chunks, 'ssr', '_c.js'), chunk('return 1', '_c.js'));
    fs.writeFileSync(path.join(chunks, '_d.js'), chunk('return 2', '_d.js'));
    try {
      expect(shareServerChunkCopies(distDir)).toEqual({ linked: 2, savedBytes: 2 * chunk('return 1', '_b.js').length });
      expect(fs.lstatSync(path.join(chunks, '_b.js')).isSymbolicLink()).toBe(true);
      expect(fs.readlinkSync(path.join(chunks, 'ssr', '_c.js'))).toBe(path.join('..', '_a.js'));
      expect(fs.lstatSync(path.join(chunks, '_d.js')).isFile()).toBe(true);
      // What the Turbopack runtime does with a chunk: require it by its path.
      const first = require(path.join(chunks, '_a.js'));
      expect(require(path.join(chunks, '_b.js'))).toBe(first);
      expect(require(path.join(chunks, 'ssr', '_c.js'))).toBe(first);
      expect(require(path.join(chunks, '_d.js'))).not.toBe(first);
      // Run again on its own output, it finds nothing more to do.
      expect(shareServerChunkCopies(distDir)).toEqual({ linked: 0, savedBytes: 0 });
    } finally {
      fs.rmSync(distDir, { recursive: true, force: true });
    }
  });
});

describe('the build the tests run', { timeout: 600_000 }, () => {
  it('holds each server chunk once: no two files are the same code', async () => {
    await ensureBuild();
    const chunks = path.join(process.env.NEXT_DIST_DIR || '.next', 'server', 'chunks');
    const kinds = new Map<string, string>();
    let links = 0;
    for (const entry of fs.readdirSync(chunks, { recursive: true, withFileTypes: true })) {
      if (entry.isSymbolicLink()) links += 1;
      if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
      const file = path.join(entry.parentPath, entry.name);
      const kind = chunkKind(fs.readFileSync(file, 'utf8'));
      expect(kinds.get(kind), file).toBeUndefined();
      kinds.set(kind, file);
    }
    expect(links).toBeGreaterThan(0);
  });
});
