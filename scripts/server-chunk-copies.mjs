// After `next build`: one file for each server chunk Turbopack wrote several times.
//
// Turbopack gives each route its own copies of the chunks routes share, byte for byte the same but
// for the source map each names at its end (one 240 KiB chunk was written ten times). Each copy a
// route loads is read, compiled and kept in the heap again, though its modules are installed once
// (the runtime keeps the first factory of each module id). A copy becomes a relative symbolic link
// to the first of its kind: Node requires a file by its real path, so the second route's `require`
// returns the module already loaded, and its source is held once. The chunk then names the first
// copy's source map, which maps the same code.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SOURCE_MAP_LINE = /\n\/\/# sourceMappingURL=[^\n]*\n?$/u;

/** What makes two chunks copies of each other: their code, without the source map each names. */
export function chunkKind(text) {
  return createHash('sha256').update(text.replace(SOURCE_MAP_LINE, '')).digest('hex');
}

/** Links every server chunk that repeats another to that one; what it did, for the build's output. */
export function shareServerChunkCopies(distDir) {
  const chunksDir = path.join(distDir, 'server', 'chunks');
  const firstOfKind = new Map();
  let linked = 0;
  let savedBytes = 0;
  const files = fs
    .readdirSync(chunksDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const kind = chunkKind(text);
    const first = firstOfKind.get(kind);
    if (first === undefined) {
      firstOfKind.set(kind, file);
      continue;
    }
    fs.rmSync(file);
    fs.symlinkSync(path.relative(path.dirname(file), first), file);
    linked += 1;
    savedBytes += text.length;
  }
  return { linked, savedBytes };
}
