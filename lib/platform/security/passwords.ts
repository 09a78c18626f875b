import { randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit from 'p-limit';

// scrypt at OWASP's recommended minimum (N=2^17, r=8, p=1: 128 MiB and a fraction of a second per
// hash, a deliberate cost per sign-in attempt). Parameters are stored with each hash, so they can
// be raised later without invalidating existing passwords. `low` is the test suites' setting
// (PASSWORD_HASH_COST), which production refuses: the same algorithm at an eighth of the work.
export const PASSWORD_HASH_COSTS = ['standard', 'low'] as const;
export type PasswordHashCost = (typeof PASSWORD_HASH_COSTS)[number];
const PARAMETERS: Record<PasswordHashCost, ScryptOptions & { N: number; r: number; p: number }> = {
  standard: { N: 2 ** 17, r: 8, p: 1 },
  low: { N: 2 ** 14, r: 8, p: 1 },
};
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 12;

// scrypt runs on libuv's thread pool (4 threads by default), which file access, DNS lookups and
// other crypto share. At most two hashes at a time, per process: parallel sign-ins queue here
// instead of taking every thread, and their memory stays at 2 × 128 MiB.
export const MAX_CONCURRENT_HASHES = 2;
const hashingSlots = pLimit(MAX_CONCURRENT_HASHES);

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return hashingSlots(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCallback(password, salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

/** A new hash at `cost`: env().PASSWORD_HASH_COST, which the callers read (this floor reads no settings). */
export async function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  const salt = randomBytes(16);
  const parameters = PARAMETERS[cost];
  const key = await scrypt(password, salt, KEY_LENGTH, parameters);
  return ['scrypt', parameters.N, parameters.r, parameters.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password and for a stored hash that is not one of ours (never throws). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algorithm, n, r, p, salt, expected] = stored.split('$');
  if (algorithm !== 'scrypt' || !salt || !expected) return false;
  const [cost, blockSize, parallelism] = [Number(n), Number(r), Number(p)];
  const sane = [cost, blockSize, parallelism].every(Number.isSafeInteger) && cost >= 2 && cost <= 2 ** 20 && blockSize >= 1 && blockSize <= 32 && parallelism >= 1 && parallelism <= 16;
  const expectedKey = Buffer.from(expected, 'base64url');
  if (!sane || expectedKey.length < 16) return false;
  try {
    const key = await scrypt(password, Buffer.from(salt, 'base64url'), expectedKey.length, { N: cost, r: blockSize, p: parallelism });
    return timingSafeEqual(key, expectedKey);
  } catch {
    return false;
  }
}

/** A random password for seeded and reset accounts: 18 characters, unambiguous alphabet. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return Array.from({ length: 18 }, () => alphabet[randomInt(alphabet.length)]).join('');
}
