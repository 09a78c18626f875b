import { z } from 'zod';
import { isValidClassicNit, isValidNit, normalizeNit } from '@/lib/platform/guatemala/identifiers';
import { defineSettings, type SettingsOf, type SettingsSource } from '@/lib/platform/settings/fragment';
import { requireSet } from '@/lib/platform/settings/rules';
import { emptyAsUnset, optional, printableLine } from '@/lib/platform/settings/values';
import { FEL_SETTINGS } from '@/lib/providers/fel/settings';
import { DEVELOPMENT_ISSUER_WORDS } from '@/lib/vocabulary/issuer';

// The operator, one issuer of its monthly statements and its FEL invoices: legal name, NIT
// (checked as SAT does, kept without separators) and address (the street line; a statement adds
// the municipality and the department, and FEL's DTE takes each apart).

/**
 * The issuer in development, of its statements and its invoices alike: values that say so on every
 * PDF, so a development document is never taken for an operator's (their words are in
 * lib/vocabulary/issuer.ts). The NIT passes SAT's check (any valid one would) and is the one the
 * simulated certifier knows.
 */
export const DEVELOPMENT_ISSUER = {
  ISSUER_LEGAL_NAME: DEVELOPMENT_ISSUER_WORDS.legalName,
  ISSUER_NIT: '576937-K',
  ISSUER_ADDRESS: DEVELOPMENT_ISSUER_WORDS.address,
  ISSUER_POSTAL_CODE: '01001',
  ISSUER_MUNICIPALITY: 'Guatemala',
  ISSUER_DEPARTMENT: 'Guatemala',
} as const;

/**
 * Settings renamed, read under their old names for one release when the new one is unset (a
 * warning at start says so; docs/deploy.md, "Renamed settings"). Statements and invoices named
 * their issuer twice, STATEMENT_ISSUER_* and FEL_ISSUER_*, and in development they named two.
 */
export const RENAMED_SETTINGS: ReadonlyArray<{ old: string; now: string }> = [
  { old: 'STATEMENT_ISSUER_NAME', now: 'ISSUER_LEGAL_NAME' },
  { old: 'FEL_ISSUER_LEGAL_NAME', now: 'ISSUER_LEGAL_NAME' },
  { old: 'STATEMENT_ISSUER_NIT', now: 'ISSUER_NIT' },
  { old: 'FEL_ISSUER_NIT', now: 'ISSUER_NIT' },
  { old: 'FEL_ISSUER_ADDRESS', now: 'ISSUER_ADDRESS' },
  { old: 'STATEMENT_ISSUER_ADDRESS', now: 'ISSUER_ADDRESS' },
  { old: 'FEL_ISSUER_POSTAL_CODE', now: 'ISSUER_POSTAL_CODE' },
  { old: 'FEL_ISSUER_MUNICIPALITY', now: 'ISSUER_MUNICIPALITY' },
  { old: 'FEL_ISSUER_DEPARTMENT', now: 'ISSUER_DEPARTMENT' },
];

/** Old names that must agree when both are set: two different issuers would be the bug itself. */
const ONE_ISSUER_SETTINGS = new Set(['ISSUER_LEGAL_NAME', 'ISSUER_NIT']);

/** The old name whose value stands for `now`, when `now` itself is unset: the first of the list that is set. */
function oldNameInUse(source: SettingsSource, now: string): string | undefined {
  if (emptyAsUnset(source[now]) !== undefined) return undefined;
  return RENAMED_SETTINGS.find((rename) => rename.now === now && emptyAsUnset(source[rename.old]) !== undefined)?.old;
}

/** What a start warns of: each old name set in `source`, and whether its value is the one used. */
export function renamedSettingsInUse(source: SettingsSource): string[] {
  return RENAMED_SETTINGS.filter(({ old }) => emptyAsUnset(source[old]) !== undefined).map(({ old, now }) => {
    const used = oldNameInUse(source, now);
    if (used === old) return `${old} is the old name of ${now}, read for this release only: rename it ${now}`;
    return `${old} is the old name of ${now} and is ignored (${used ?? now} is used): remove it`;
  });
}

/** The renamed settings' values under their new names, from the old ones where the new are unset; and the conflicts. */
function renamedSettingValues(source: SettingsSource): { values: Record<string, string>; problems: string[] } {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const now of new Set(RENAMED_SETTINGS.map((rename) => rename.now))) {
    const used = oldNameInUse(source, now);
    if (!used) continue;
    values[now] = source[used]!;
    if (!ONE_ISSUER_SETTINGS.has(now)) continue;
    const comparable = (name: string) => (now === 'ISSUER_NIT' ? normalizeNit(source[name]!) : source[name]!.trim());
    const others = RENAMED_SETTINGS.filter((rename) => rename.now === now && rename.old !== used && emptyAsUnset(source[rename.old]) !== undefined);
    for (const other of others) {
      if (comparable(other.old) !== comparable(used)) problems.push(`${now}: ${used} and ${other.old} name different issuers, and statements and invoices name one: set ${now} and remove both`);
    }
  }
  return { values, problems };
}

export const ISSUER_SETTINGS = defineSettings({
  title: 'The operator, issuer of statements and invoices (lib/core/issuer)',
  shape: {
    ISSUER_LEGAL_NAME: optional(printableLine(200)),
    ISSUER_NIT: optional(z.string().trim().refine(isValidNit, 'must be a valid NIT (digits and its check character, as 576937-K, or a CUI)').transform(normalizeNit)),
    ISSUER_ADDRESS: optional(printableLine(255)),
    ISSUER_POSTAL_CODE: optional(printableLine(20)),
    ISSUER_MUNICIPALITY: optional(printableLine(100)),
    ISSUER_DEPARTMENT: optional(printableLine(100)),
  },
  docs: {
    ISSUER_LEGAL_NAME: "The operator's legal name, as its statements and invoices name it; development's says it is none. Old names STATEMENT_ISSUER_NAME, FEL_ISSUER_LEGAL_NAME.",
    ISSUER_NIT: "The operator's NIT, checked as SAT does (a CUI too, but not with FEL on). Old names STATEMENT_ISSUER_NIT, FEL_ISSUER_NIT.",
    ISSUER_ADDRESS: "The street line of the operator's address. Old names FEL_ISSUER_ADDRESS, STATEMENT_ISSUER_ADDRESS.",
    ISSUER_POSTAL_CODE: "The address's postal code; required in production with FEL on. Old name FEL_ISSUER_POSTAL_CODE.",
    ISSUER_MUNICIPALITY: "The address's municipality; required in production with FEL on. Old name FEL_ISSUER_MUNICIPALITY.",
    ISSUER_DEPARTMENT: "The address's department; required in production with FEL on. Old name FEL_ISSUER_DEPARTMENT.",
  },
  uses: [FEL_SETTINGS],
  // Production names its issuer itself; development's says on every document that it is one.
  input: (source, appEnv) => {
    const renamed = renamedSettingValues(source).values;
    return Object.fromEntries(
      Object.entries(DEVELOPMENT_ISSUER).map(([name, developmentValue]) => [name, emptyAsUnset(source[name]) ?? renamed[name] ?? (appEnv === 'production' ? undefined : developmentValue)]),
    );
  },
  refine: (settings, ctx, appEnv) => {
    if (settings.FEL_ENABLED && settings.ISSUER_NIT && isValidNit(settings.ISSUER_NIT) && !isValidClassicNit(settings.ISSUER_NIT)) {
      // A DTE's Emisor is a NIT with its check character.
      ctx.addIssue({ code: 'custom', path: ['ISSUER_NIT'], message: 'must be a NIT with its check character (as 576937-K), not a CUI, when FEL_ENABLED=true' });
    }
    if (appEnv !== 'production') return;
    requireSet(settings, ctx, ['ISSUER_LEGAL_NAME', 'ISSUER_NIT', 'ISSUER_ADDRESS'], 'APP_ENV=production');
    if (settings.FEL_ENABLED) requireSet(settings, ctx, ['ISSUER_POSTAL_CODE', 'ISSUER_MUNICIPALITY', 'ISSUER_DEPARTMENT'], 'APP_ENV=production and FEL_ENABLED=true');
  },
  sourceProblems: (source) => renamedSettingValues(source).problems,
});

export type IssuerSettings = SettingsOf<typeof ISSUER_SETTINGS>;

/** The process's issuer settings, read on first use. */
export const issuerSettings = (): IssuerSettings => ISSUER_SETTINGS.current();
