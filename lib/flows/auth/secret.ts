import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '@/lib/platform/settings/env';
import { ensurePrivateDirectory, LOCAL_DATA_DIR } from '@/lib/platform/files/private-directory';

// Where the development secret lives: next to the embedded database, so it survives restarts
// (sessions stay valid) and is thrown away with the rest of the local data.
const DEVELOPMENT_SECRET_FILE = path.join(LOCAL_DATA_DIR, 'nextauth-secret');

/**
 * The key that signs console sessions. Production must set NEXTAUTH_SECRET (the platform's settings refuse to
 * start without it). In development an unset secret is generated once and kept in .data/, so a
 * new checkout needs no configuration and restarting the app does not sign everybody out.
 */
export function nextAuthSecret(): string {
  const settings = env();
  if (settings.NEXTAUTH_SECRET) return settings.NEXTAUTH_SECRET;
  if (settings.APP_ENV === 'production') throw new Error('NEXTAUTH_SECRET is required when APP_ENV=production');
  const file = path.resolve(DEVELOPMENT_SECRET_FILE);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const generated = randomBytes(48).toString('base64url');
  ensurePrivateDirectory(path.dirname(file));
  fs.writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return generated;
}
