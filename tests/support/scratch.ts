import fs from 'node:fs';
import os from 'node:os';

const IN_MEMORY_ROOT = '/dev/shm';

/**
 * Where tests keep what they write a lot of (embedded databases, apps' journals): in memory
 * (/dev/shm) where the system has it, else the temporary directory (macOS). A copy of the PGlite
 * template (41 MB: two 16 MB WAL segments and some 1,400 files) took about a second of kernel CPU on
 * this machine's ext4 and 0.07 s in memory, once for each of some 110 test files; the databases'
 * own writes are cheaper there too (docs/performance.md, "CI time").
 */
export function scratchRoot(): string {
  try {
    fs.accessSync(IN_MEMORY_ROOT, fs.constants.W_OK);
    return IN_MEMORY_ROOT;
  } catch {
    return os.tmpdir();
  }
}
