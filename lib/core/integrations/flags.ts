import type { LookupKind } from '@/db/schema';
import { LOOKUP_CATALOGUE, LOOKUP_FLAGS, LOOKUPS } from '@/lib/vocabulary/lookups';

/** The five lookups, each enabled by its own flag (lib/vocabulary/lookups.ts). */
export { LOOKUP_FLAGS };
export type LookupName = keyof typeof LOOKUP_FLAGS;
export type FlagName = (typeof LOOKUP_FLAGS)[LookupName];
export type IntegrationFlags = Record<FlagName, boolean>;

/** The contract's snake_case flag names, as operators know them. */
export const CONTRACT_FLAG_NAMES = Object.fromEntries(LOOKUPS.map((lookup) => [LOOKUP_FLAGS[lookup], LOOKUP_CATALOGUE[lookup].flag])) as Record<FlagName, string>;

export const FLAG_NAMES = Object.values(LOOKUP_FLAGS) as FlagName[];

export function flagsOf(integration: IntegrationFlags): IntegrationFlags {
  return Object.fromEntries(FLAG_NAMES.map((flag) => [flag, integration[flag]])) as IntegrationFlags;
}

/** Accepts a flag by its contract name (is_omisos_enabled), its property name, or its lookup name. */
export function parseFlagName(input: string): FlagName | undefined {
  const normalized = input.trim();
  for (const flag of FLAG_NAMES) {
    if (flag === normalized || CONTRACT_FLAG_NAMES[flag] === normalized) return flag;
  }
  return LOOKUP_FLAGS[normalized.replace('-', '_') as LookupName];
}

/** The lookup each flag enables. */
export const FLAG_LOOKUP: Record<FlagName, LookupKind> = Object.fromEntries(
  Object.entries(LOOKUP_FLAGS).map(([lookup, flag]) => [flag, lookup]),
) as Record<FlagName, LookupKind>;
