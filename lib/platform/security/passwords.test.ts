import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, MAX_CONCURRENT_HASHES, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords';

describe('console passwords', () => {
  it('stores a salted, self-describing scrypt hash at OWASP\'s cost that does not contain the password', async () => {
    const hash = await hashPassword('correct horse battery', 'standard');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('correct horse battery');
    expect(await hashPassword('correct horse battery', 'standard')).not.toBe(hash);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery', 'standard');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('refuses a stored value that is not one of its hashes', async () => {
    const hash = await hashPassword('correct horse battery', 'standard');
    expect(await verifyPassword('correct horse battery', '')).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plain-text-password')).toBe(false);
    expect(await verifyPassword('correct horse battery', hash.replace(/^scrypt/, 'bcrypt'))).toBe(false);
    expect(await verifyPassword('correct horse battery', hash.split('$').slice(0, 5).join('$'))).toBe(false);
  });

  it('answers false, never throws, for a corrupted hash (a sign-in must not become a 500)', async () => {
    const [, , r, p, salt, key] = (await hashPassword('correct horse battery', 'standard')).split('$');
    for (const cost of ['abc', '0', String(2 ** 30), '-5']) {
      expect(await verifyPassword('correct horse battery', ['scrypt', cost, r, p, salt, key].join('$'))).toBe(false);
    }
    expect(await verifyPassword('correct horse battery', ['scrypt', '16384', r, p, salt, 'AA'].join('$'))).toBe(false);
  });

  it('generates long random passwords without look-alike characters', () => {
    const passwords = Array.from({ length: 50 }, generatePassword);
    for (const password of passwords) {
      expect(password.length).toBeGreaterThanOrEqual(MIN_PASSWORD_LENGTH);
      expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]+$/);
    }
    expect(new Set(passwords).size).toBe(50);
  });
});

describe('the test suites\' low cost', () => {
  it('hashes at N=2^14, and a hash of either cost verifies by the cost it names', async () => {
    const low = await hashPassword('correct horse battery', 'low');
    expect(low).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const standard = await hashPassword('correct horse battery', 'standard');
    expect(await verifyPassword('correct horse battery', low)).toBe(true);
    expect(await verifyPassword('correct horse battery', standard)).toBe(true);
    expect(await verifyPassword('correct horse batterY', standard)).toBe(false);
  });
});

describe('password hashing under parallel sign-ins', () => {
  it('leaves libuv threads for other work: a file read queued behind 8 hashes finishes before the first hash', async () => {
    expect(MAX_CONCURRENT_HASHES).toBeLessThan(4); // libuv's default thread pool
    const finished: string[] = [];
    const hashes = Array.from({ length: 8 }, (_, index) => hashPassword(`parallel sign-in ${index}`, 'standard').then(() => finished.push(`hash ${index}`)));
    const read = fs.readFile(import.meta.filename).then(() => finished.push('file read'));
    await Promise.all([...hashes, read]);
    expect(finished[0]).toBe('file read');
  });
});
