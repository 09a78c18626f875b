import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';
import { SOURCE_SETTINGS } from '@/lib/sources/settings';

// The balance's settings: when it counts as low for an integration that set no threshold of its
// own, and when a hold no process settled (it crashed mid-lookup) is voided.
export const BALANCE_SETTINGS = defineSettings({
  title: 'Balances and holds (lib/core/billing)',
  shape: {
    ALERT_LOW_BALANCE_DEFAULT_CENTAVOS: integer(10_000),
    HOLD_SWEEP_AFTER_SECONDS: integer(60, 1),
    HOLD_SWEEP_INTERVAL_SECONDS: integer(15, 1),
  },
  docs: {
    ALERT_LOW_BALANCE_DEFAULT_CENTAVOS: 'The low-balance threshold of integrations without their own, for the alerts, the notices and the pages alike (10000 = Q 100.00).',
    HOLD_SWEEP_AFTER_SECONDS: 'Holds this old with no settlement (a crashed process) are voided by the sweeper; longer than SOURCE_TIMEOUT_MS.',
    HOLD_SWEEP_INTERVAL_SECONDS: 'How often each instance looks for such holds.',
  },
  uses: [SOURCE_SETTINGS],
  refine: (settings, ctx) => {
    if (settings.HOLD_SWEEP_AFTER_SECONDS * 1000 <= settings.SOURCE_TIMEOUT_MS) {
      // The sweeper must never void the hold of a lookup that is still waiting for its source.
      ctx.addIssue({ code: 'custom', path: ['HOLD_SWEEP_AFTER_SECONDS'], message: 'must be longer than SOURCE_TIMEOUT_MS' });
    }
  },
});

export type BalanceSettings = SettingsOf<typeof BALANCE_SETTINGS>;

/** The process's balance settings, read on first use. */
export const balanceSettings = (): BalanceSettings => BALANCE_SETTINGS.current();
