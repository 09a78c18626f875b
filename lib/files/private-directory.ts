import fs from 'node:fs';

const OWNER_ONLY = 0o700;

/**
 * Creates `directory` (and any missing parent) readable by this user only: the local data folder
 * holds the embedded database and the development session secret. A folder an older version left
 * open to others is closed too.
 */
export function ensurePrivateDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true, mode: OWNER_ONLY });
  if ((fs.statSync(directory).mode & 0o077) !== 0) fs.chmodSync(directory, OWNER_ONLY);
}
