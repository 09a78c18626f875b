import fs from 'node:fs';
import path from 'node:path';

const OWNER_ONLY = 0o700;

/** The project's own data folder (the embedded database, the development session secret). */
export const LOCAL_DATA_DIR = '.data';

/**
 * Creates `directory` (and any missing parent) readable by this user only. Folders that already
 * exist keep their permissions, because they may be shared (PGLITE_DIR=/tmp/… has /tmp as its
 * parent), with one exception: the project's own `.data/`, which an older version created open
 * to others, is closed.
 */
export function ensurePrivateDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true, mode: OWNER_ONLY });
  const ownDataFolder = path.resolve(directory) === path.resolve(LOCAL_DATA_DIR);
  if (ownDataFolder && (fs.statSync(directory).mode & 0o077) !== 0) fs.chmodSync(directory, OWNER_ONLY);
}
