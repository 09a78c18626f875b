import type { Integration, LookupKind } from '@/db/schema';

/** The five lookups, each enabled by its own flag (named as in the contract). */
export const LOOKUP_FLAGS = {
  renap: 'isRenapEnabled',
  rtu_nits: 'isRtuEnabled',
  cui_nit: 'isCuiNitEnabled',
  rtu: 'isRtuV2Enabled',
  omisos: 'isOmisosEnabled',
} as const satisfies Record<string, keyof Integration>;

export type LookupName = keyof typeof LOOKUP_FLAGS;
export type FlagName = (typeof LOOKUP_FLAGS)[LookupName];
export type IntegrationFlags = Record<FlagName, boolean>;

/** The contract's snake_case flag names, as operators know them. */
export const CONTRACT_FLAG_NAMES: Record<FlagName, string> = {
  isRenapEnabled: 'is_renap_enabled',
  isRtuEnabled: 'is_rtu_enabled',
  isCuiNitEnabled: 'is_cui_nit_enabled',
  isRtuV2Enabled: 'is_rtu_v2_enabled',
  isOmisosEnabled: 'is_omisos_enabled',
};

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
