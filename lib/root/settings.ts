import { z } from 'zod';
import { currentSettings, readSettings, type SettingsOfAll, type SettingsSource } from '@/lib/platform/settings/fragment';
import { PLATFORM_SETTINGS } from '@/lib/platform/settings/env';
import { MAIL_SETTINGS } from '@/lib/platform/mail/settings';
import { JOB_SETTINGS } from '@/lib/platform/jobs/daily-hours';
import { SOURCE_SETTINGS } from '@/lib/sources/settings';
import { FEL_SETTINGS } from '@/lib/providers/fel/settings';
import { PAYMENT_SETTINGS } from '@/lib/providers/payments/settings';
import { TIMESTAMPING_SETTINGS } from '@/lib/providers/timestamping/settings';
import { SEALING_SETTINGS } from '@/lib/core/sealing/settings';
import { INTEGRATION_DIRECTORY_SETTINGS } from '@/lib/core/integrations/settings';
import { ADMISSION_SETTINGS } from '@/lib/core/admission/settings';
import { MEMORY_SETTINGS } from '@/lib/platform/memory/settings';
import { BALANCE_SETTINGS } from '@/lib/core/billing/settings';
import { RECORD_RETENTION_SETTINGS } from '@/lib/core/records/settings';
import { RECORD_JOURNAL_SETTINGS } from '@/lib/core/record-journal/settings';
import { REQUEST_TRACE_SETTINGS } from '@/lib/core/request-traces/settings';
import { ROLLUP_SETTINGS } from '@/lib/core/rollups/settings';
import { ISSUER_SETTINGS } from '@/lib/core/issuer/settings';
import { CONSTANCIA_SETTINGS } from '@/lib/core/constancias/settings';
import { TOP_UP_SETTINGS } from '@/lib/flows/top-ups/settings';
import { ONLINE_TOP_UP_SETTINGS } from '@/lib/flows/online-top-ups/settings';
import { AUTO_TOP_UP_SETTINGS } from '@/lib/flows/auto-top-ups/settings';
import { BULK_SETTINGS } from '@/lib/flows/bulk/settings';
import { ALERT_SETTINGS } from '@/lib/reactions/alerts/settings';
import { INTEGRATOR_NOTIFICATION_SETTINGS } from '@/lib/reactions/integrator-notifications/settings';
import { CONSOLE_SSO_SETTINGS } from '@/lib/flows/auth/sso-settings';
import { SESSION_SETTINGS } from '@/lib/flows/auth/session-settings';
import { STATUS_PAGE_SETTINGS } from '@/lib/reactions/status-page/settings';

// Every capability's settings, assembled: the start, the CLI and the migrations check them all at
// once, and docs/operations.md's table lists them in this order (npm run docs:settings). A capability
// with settings of its own adds its fragment here.
export const SETTINGS_FRAGMENTS = [
  PLATFORM_SETTINGS,
  MAIL_SETTINGS,
  SESSION_SETTINGS,
  CONSOLE_SSO_SETTINGS,
  SEALING_SETTINGS,
  SOURCE_SETTINGS,
  INTEGRATION_DIRECTORY_SETTINGS,
  ADMISSION_SETTINGS,
  MEMORY_SETTINGS,
  BALANCE_SETTINGS,
  RECORD_RETENTION_SETTINGS,
  RECORD_JOURNAL_SETTINGS,
  REQUEST_TRACE_SETTINGS,
  ROLLUP_SETTINGS,
  JOB_SETTINGS,
  ISSUER_SETTINGS,
  CONSTANCIA_SETTINGS,
  TIMESTAMPING_SETTINGS,
  FEL_SETTINGS,
  TOP_UP_SETTINGS,
  PAYMENT_SETTINGS,
  ONLINE_TOP_UP_SETTINGS,
  AUTO_TOP_UP_SETTINGS,
  BULK_SETTINGS,
  ALERT_SETTINGS,
  INTEGRATOR_NOTIFICATION_SETTINGS,
  STATUS_PAGE_SETTINGS,
] as const;

export type Settings = SettingsOfAll<typeof SETTINGS_FRAGMENTS>;

/** Every setting's schema in one object: its shape names them all. */
export const envSchema = z.object(Object.assign({}, ...SETTINGS_FRAGMENTS.map((fragment) => fragment.shape)) as z.ZodRawShape);

/** Validates a set of variables; throws EnvError naming each wrong or missing one. */
export function parseEnv(source: SettingsSource): Settings {
  return readSettings(SETTINGS_FRAGMENTS, source);
}

/** The process's settings, every capability's, validated at once on first use. */
export function allSettings(): Settings {
  return currentSettings(SETTINGS_FRAGMENTS);
}
