// Writes lib/flows/passwords/common-passwords.txt, the list of common passwords the console refuses
// (lib/flows/passwords/policy.ts). The source is the "passwords-common" dictionary of
// @zxcvbn-ts/language-common (a dev dependency, pinned), ordered by how often each password
// appears in public breach corpora. We keep the 10,000 most common, plus every entry of the whole
// dictionary that is long enough to pass the length rule on its own: those are exactly the ones
// the length rule cannot catch. Run: npx tsx scripts/write-common-passwords.ts
import fs from 'node:fs';
import path from 'node:path';
import { dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';

const MOST_COMMON = 10_000;
const OUTPUT = path.resolve(import.meta.dirname, '..', 'lib', 'flows', 'passwords', 'common-passwords.txt');

const source = dictionary['passwords-common'] as string[];
const kept = source.filter((password, rank) => rank < MOST_COMMON || password.length >= MIN_PASSWORD_LENGTH);
const lines = [...new Set(kept.map((password) => password.toLowerCase()))];
fs.writeFileSync(OUTPUT, `${lines.join('\n')}\n`);
console.log(`${lines.length} passwords written to ${path.relative(process.cwd(), OUTPUT)}`);
