import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { SEALING_SETTINGS, type SealingSettings } from './settings';

/** What the keys are read from: their settings, and whether this is production. */
type KeySettings = SealingSettings & Pick<Env, 'APP_ENV'>;
import { ensurePrivateDirectory, LOCAL_DATA_DIR } from '@/lib/platform/files/private-directory';

/** A 256-bit key and its id: the id travels with every value it sealed, so keys can rotate. */
export interface PersonalDataKey {
  id: string;
  key: KeyObject;
}

/** The keys of one process: the current ones write, the previous ones are still read during a rotation. */
export interface PersonalDataKeyring {
  encryption: PersonalDataKey;
  /** Every key an encrypted value may name: the current one and PERSONAL_DATA_PREVIOUS_KEYS. */
  decryption: ReadonlyMap<string, KeyObject>;
  search: PersonalDataKey;
  /** PERSONAL_DATA_PREVIOUS_SEARCH_KEYS: searched too until every hash is recomputed. */
  previousSearch: readonly PersonalDataKey[];
}

type KeySetting = 'PERSONAL_DATA_KEY' | 'PERSONAL_DATA_SEARCH_KEY';

// Next to the embedded database and the development session secret (lib/flows/auth/secret.ts): kept
// across restarts, thrown away with the rest of the local data.
const DEVELOPMENT_KEY_FILES: Record<KeySetting, string> = {
  PERSONAL_DATA_KEY: path.join(LOCAL_DATA_DIR, 'personal-data-key'),
  PERSONAL_DATA_SEARCH_KEY: path.join(LOCAL_DATA_DIR, 'personal-data-search-key'),
};

/**
 * A key's id: 8 hex characters of an HMAC of a fixed text under the key. It tells keys apart
 * without revealing anything about them (unlike a prefix of the key itself).
 */
function keyId(key: Buffer): string {
  return createHmac('sha256', key).update('personal-data key id').digest('hex').slice(0, 8);
}

function fromBase64(text: string): PersonalDataKey {
  const bytes = Buffer.from(text.trim(), 'base64');
  if (bytes.length !== 32) throw new Error('a personal-data key must be 32 bytes in base64');
  return { id: keyId(bytes), key: createSecretKey(bytes) };
}

/**
 * The development key for a setting: generated once into .data/ (0600). Exclusive creation, so the
 * app, the CLI and a seed starting at the same moment all end up with the one key on disk.
 */
function developmentKey(setting: KeySetting): string {
  const file = path.resolve(DEVELOPMENT_KEY_FILES[setting]);
  for (;;) {
    try {
      const stored = fs.readFileSync(file, 'utf8').trim();
      if (stored !== '') return stored;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    ensurePrivateDirectory(path.dirname(file));
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process wrote it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function configuredKey(settings: KeySettings, setting: KeySetting): PersonalDataKey {
  const value = settings[setting];
  if (value) return fromBase64(value);
  // settings.ts refuses a production start without it; this guards any other way in.
  if (settings.APP_ENV === 'production') throw new Error(`${setting} is required when APP_ENV=production`);
  return fromBase64(developmentKey(setting));
}

const cache = new WeakMap<KeySettings, PersonalDataKeyring>();

/** This process's personal-data keys, from its settings (read once per settings object). */
export function personalDataKeys(settings: KeySettings = currentSettings([PLATFORM_SETTINGS, SEALING_SETTINGS])): PersonalDataKeyring {
  const cached = cache.get(settings);
  if (cached) return cached;
  const encryption = configuredKey(settings, 'PERSONAL_DATA_KEY');
  const search = configuredKey(settings, 'PERSONAL_DATA_SEARCH_KEY');
  const decryption = new Map<string, KeyObject>([[encryption.id, encryption.key]]);
  for (const previous of settings.PERSONAL_DATA_PREVIOUS_KEYS.map(fromBase64)) if (!decryption.has(previous.id)) decryption.set(previous.id, previous.key);
  const previousSearch = settings.PERSONAL_DATA_PREVIOUS_SEARCH_KEYS.map(fromBase64).filter((key) => key.id !== search.id);
  const keyring = { encryption, decryption, search, previousSearch };
  cache.set(settings, keyring);
  return keyring;
}
