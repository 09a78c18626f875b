import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// Online top-ups (docs/operations.md, "Online payments (provider settings)"): the amounts one may
// credit, the fee the integrator pays on top, and how often open ones are read at the provider.
export const ONLINE_TOP_UP_SETTINGS = defineSettings({
  title: 'Online top-ups (lib/flows/online-top-ups)',
  shape: {
    ONLINE_TOP_UP_MIN_CENTAVOS: integer(10_000, 100, 1_000_000_000),
    ONLINE_TOP_UP_MAX_CENTAVOS: integer(5_000_000, 100, 1_000_000_000),
    ONLINE_TOP_UP_FEE_BASIS_POINTS: integer(0, 0, 5_000),
    ONLINE_TOP_UP_FEE_FIXED_CENTAVOS: integer(0, 0, 100_000),
    ONLINE_TOP_UP_POLL_MS: integer(60_000, 1_000, 3_600_000),
  },
  docs: {
    ONLINE_TOP_UP_MIN_CENTAVOS: 'The least one online top-up credits, in centavos.',
    ONLINE_TOP_UP_MAX_CENTAVOS: 'The most one online top-up credits, in centavos; not below the minimum.',
    ONLINE_TOP_UP_FEE_BASIS_POINTS: 'The fee the integrator pays on top of what is credited, shown before paying: basis points of the amount (450 = 4.5 %). 0 and 0: the service absorbs it.',
    ONLINE_TOP_UP_FEE_FIXED_CENTAVOS: "The fee's fixed part, in centavos.",
    ONLINE_TOP_UP_POLL_MS: 'How often open online top-ups (unpaid checkouts, pending transfers) are read at the provider.',
  },
  refine: (settings, ctx) => {
    if (settings.ONLINE_TOP_UP_MIN_CENTAVOS > settings.ONLINE_TOP_UP_MAX_CENTAVOS) {
      ctx.addIssue({ code: 'custom', path: ['ONLINE_TOP_UP_MAX_CENTAVOS'], message: 'must not be below ONLINE_TOP_UP_MIN_CENTAVOS' });
    }
  },
});

export type OnlineTopUpSettings = SettingsOf<typeof ONLINE_TOP_UP_SETTINGS>;

/** The process's online top-up settings, read on first use. */
export const onlineTopUpSettings = (): OnlineTopUpSettings => ONLINE_TOP_UP_SETTINGS.current();
