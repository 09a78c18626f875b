import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { ensurePrivateDirectory, LOCAL_DATA_DIR } from '@/lib/platform/files/private-directory';
import { processSlot } from '@/lib/platform/runtime/process-state';
import { keyRingFromJson, newConfiguredKey, type PublishedKey, type SigningKeyRing, type StatementSigner } from '@/lib/platform/transparency/signing';
import { env } from '@/lib/platform/settings/env';
import { constanciaSettings } from './settings';

// The constancias' signing keys: the configured ones (a secret or a file), and every key that ever
// signed, recorded in the database the first time it signs, so /.well-known/jwks.json keeps
// publishing a key the configuration has since dropped: a receipt it signed still verifies.

const DEVELOPMENT_KEYS_FILE = path.join(LOCAL_DATA_DIR, 'constancia-signing-keys.json');

interface KeyState {
  ring?: Promise<SigningKeyRing>;
  recorded: Set<string>;
  /** The leaf indexes this instance took and has not handed out yet (lib/core/constancias/issue.ts). */
  indexBlock: IndexBlock;
}

export interface IndexBlock {
  indexes: number[];
  takenAtMs: number;
  pending?: Promise<void>;
}

const state = () => processSlot<KeyState>('constanciaKeys', () => ({ recorded: new Set(), indexBlock: { indexes: [], takenAtMs: 0 } }));

/** This process's block of leaf indexes. */
export function indexBlock(): IndexBlock {
  return state().indexBlock;
}

/** This process's key ring, read once from its settings. */
export function constanciaKeyRing(): Promise<SigningKeyRing> {
  const keys = state();
  keys.ring ??= keyRingFromJson(configuredKeysText()).catch((error: unknown) => {
    keys.ring = undefined;
    throw error;
  });
  return keys.ring;
}

function configuredKeysText(): string {
  const settings = constanciaSettings();
  if (settings.CONSTANCIA_SIGNING_KEYS) return settings.CONSTANCIA_SIGNING_KEYS;
  if (settings.CONSTANCIA_SIGNING_KEYS_FILE) return fs.readFileSync(settings.CONSTANCIA_SIGNING_KEYS_FILE, 'utf8');
  // settings.ts refuses a production start without keys; this guards any other way in.
  if (env().APP_ENV === 'production') throw new Error('CONSTANCIA_SIGNING_KEYS or CONSTANCIA_SIGNING_KEYS_FILE is required when APP_ENV=production');
  return developmentKeysText();
}

/** Development's key: generated once into .data/ (0600), kept across restarts with the embedded database. */
function developmentKeysText(): string {
  const file = path.resolve(DEVELOPMENT_KEYS_FILE);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensurePrivateDirectory(path.dirname(file));
  // A key that signs from the epoch on: development's receipts of any date verify.
  const text = `${JSON.stringify([newConfiguredKey(new Date(0))], null, 2)}\n`;
  try {
    fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    return text;
  } catch (error) {
    // Another process wrote it first: read theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.readFileSync(file, 'utf8');
  }
}

/** The signer at `now`, its public key recorded as used (once per process and key). */
export async function constanciaSigner(now: Date): Promise<StatementSigner> {
  const signer = (await constanciaKeyRing()).signerAt(now);
  const recorded = state().recorded;
  if (!recorded.has(signer.keyId)) {
    const handle = await database();
    await handle.rows(
      sql`insert into constancia_signing_keys (key_id, public_jwk) values (${signer.keyId}, ${JSON.stringify(signer.publicKey)}::jsonb) on conflict (key_id) do nothing`,
    );
    recorded.add(signer.keyId);
  }
  return signer;
}

/** Every key to publish: the configured ones, and any that signed and has left the configuration since. */
export async function publishedConstanciaKeys(): Promise<PublishedKey[]> {
  const configured = (await constanciaKeyRing()).published();
  const handle = await database();
  const used = await handle.rows<{ public_jwk: PublishedKey | string }>(sql`select public_jwk from constancia_signing_keys order by first_used_at, key_id`);
  const keys = [...configured];
  for (const row of used) {
    const key = typeof row.public_jwk === 'string' ? (JSON.parse(row.public_jwk) as PublishedKey) : row.public_jwk;
    if (!keys.some((known) => known.kid === key.kid)) keys.push(key);
  }
  return keys;
}
