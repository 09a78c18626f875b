// Settings are declared by their capabilities (lib/root/settings.ts lists them): each name once,
// each documented in docs/operations.md as the code writes it, and each in .env.example, which
// names nothing the app does not read.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema, SETTINGS_FRAGMENTS } from '@/lib/root/settings';
import { currentOperationsGuide, OPERATIONS_GUIDE, SETTINGS_END, SETTINGS_START } from '../../scripts/write-settings-docs';

/** Variables .env.example lists that are not the app's settings: the server's, the CLI's, the simulator's own. */
const NOT_APP_SETTINGS = ['PORT', 'HOST', 'DEV_ALLOWED_ORIGINS', 'CLI_LOG_LEVEL'];
const SIMULATOR_OWN = /^SIMULATOR_(?!PORT$|SEED$)/;

const declared = SETTINGS_FRAGMENTS.flatMap((fragment) => Object.keys(fragment.shape));

describe('the settings', () => {
  it('are each declared by one capability only', () => {
    const twice = declared.filter((name, index) => declared.indexOf(name) !== index);
    expect(twice).toEqual([]);
    expect(Object.keys(envSchema.shape).sort()).toEqual([...declared].sort());
  });

  it('each have one line of documentation', () => {
    for (const fragment of SETTINGS_FRAGMENTS) {
      expect(Object.keys(fragment.docs).sort(), fragment.title).toEqual(Object.keys(fragment.shape).sort());
      for (const [name, line] of Object.entries(fragment.docs as Record<string, string>)) expect(line, name).toMatch(/^\S[^\n]*\S$/);
    }
  });

  it('docs/operations.md holds their table as the code writes it (run `npm run docs:settings` after a change)', () => {
    const guide = fs.readFileSync(OPERATIONS_GUIDE, 'utf8');
    expect(guide).toBe(currentOperationsGuide());
    const section = guide.slice(guide.indexOf(SETTINGS_START), guide.indexOf(SETTINGS_END));
    const documented = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!);
    expect(documented.sort()).toEqual([...declared].sort());
  });

  it('the guide\'s own tables about a capability (FEL, payments, alerts, notices, the portal) name only settings that exist', () => {
    const guide = fs.readFileSync(OPERATIONS_GUIDE, 'utf8');
    const named = [...guide.slice(0, guide.indexOf(SETTINGS_START)).matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(10);
    // The one row of that shape that is no setting: a certifier's refusal code, in "FEL invoices".
    expect(named.filter((name) => !declared.includes(name) && name !== 'DAILY_QUOTA')).toEqual([]);
  });

  it('.env.example lists every one, and nothing else but the server\'s, the CLI\'s and the simulator\'s own', () => {
    const listed = [...fs.readFileSync('.env.example', 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
    expect(declared.filter((name) => !listed.includes(name)), 'declared, missing from .env.example').toEqual([]);
    expect(listed.filter((name) => !declared.includes(name) && !NOT_APP_SETTINGS.includes(name) && !SIMULATOR_OWN.test(name)), 'in .env.example, read by no capability').toEqual([]);
  });
});
