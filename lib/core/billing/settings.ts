import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// The balance's settings: when it counts as low for an integration that set no threshold of its own.
export const BALANCE_SETTINGS = defineSettings({
  title: 'Balances (lib/core/billing)',
  shape: {
    ALERT_LOW_BALANCE_DEFAULT_CENTAVOS: integer(10_000),
  },
  docs: {
    ALERT_LOW_BALANCE_DEFAULT_CENTAVOS: 'The low-balance threshold of integrations without their own, for the alerts, the notices and the pages alike (10000 = Q 100.00).',
  },
});

export type BalanceSettings = SettingsOf<typeof BALANCE_SETTINGS>;

/** The process's balance settings, read on first use. */
export const balanceSettings = (): BalanceSettings => BALANCE_SETTINGS.current();
