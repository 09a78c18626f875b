import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// Automatic top-ups: a balance under its owner's threshold is charged to the saved card.
export const AUTO_TOP_UP_SETTINGS = defineSettings({
  title: 'Automatic top-ups (lib/flows/auto-top-ups)',
  shape: {
    AUTO_TOP_UP_CHECK_MS: integer(15_000, 200, 3_600_000),
    AUTO_TOP_UP_RETRY_AFTER_MS: integer(300_000, 0, 86_400_000),
  },
  docs: {
    AUTO_TOP_UP_CHECK_MS: "How often one instance looks for balances under their owner's threshold and charges the saved card.",
    AUTO_TOP_UP_RETRY_AFTER_MS: 'How long a failed automatic charge waits for its one retry.',
  },
});

export type AutoTopUpSettings = SettingsOf<typeof AUTO_TOP_UP_SETTINGS>;

/** The process's automatic top-up settings, read on first use. */
export const autoTopUpSettings = (): AutoTopUpSettings => AUTO_TOP_UP_SETTINGS.current();
