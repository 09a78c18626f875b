import { z } from 'zod';
import type { AlertChannel } from '@/db/schema';
import { BALANCE_SETTINGS, type BalanceSettings } from '@/lib/core/billing/settings';
import { emailSettingsFrom, type EmailSettings } from '@/lib/platform/mail/smtp';
import { MAIL_SETTINGS, type MailSettings } from '@/lib/platform/mail/settings';
import { webhookUrlProblem } from '@/lib/platform/security/outbound-urls';
import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import { currentSettings, defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireAlongside, requireHttps } from '@/lib/platform/settings/rules';
import { httpUrl, integer, optional } from '@/lib/platform/settings/values';

export type { EmailSettings };

// Alerts to administrators (docs/operations.md, "Alerts to administrators"): the webhook channel
// (the e-mail one is the relay's, lib/platform/mail) and how often and how many times each is sent.
// The integrators' notices share the webhook's time-out and the outbox's retries.
export const ALERT_SETTINGS = defineSettings({
  title: 'Alerts to administrators (lib/reactions/alerts)',
  shape: {
    ALERT_WEBHOOK_URL: optional(httpUrl),
    ALERT_WEBHOOK_SECRET: optional(z.string().min(32)),
    ALERT_WEBHOOK_TIMEOUT_MS: integer(5_000, 100, 60_000),
    ALERT_REPEAT_INTERVAL_MINUTES: integer(60, 1),
    ALERT_MAX_ATTEMPTS: integer(6, 1, 20),
    ALERT_RETRY_BASE_MS: integer(5_000, 10, 3_600_000),
  },
  docs: {
    ALERT_WEBHOOK_URL: "The administrators' alert webhook, with its secret or not at all: https:// in production, no user or password and none of fetch's blocked ports (a token goes in the path or the query).",
    ALERT_WEBHOOK_SECRET: "The key (32+ characters) of the webhook's X-Alerta-Firma signature (HMAC-SHA256).",
    ALERT_WEBHOOK_TIMEOUT_MS: "Each webhook attempt's time-out, the alerts' and the integrators' notices' alike.",
    ALERT_REPEAT_INTERVAL_MINUTES: "At most one alert per condition (an integration's low balance, a source's breaker) this often, across every instance.",
    ALERT_MAX_ATTEMPTS: "Attempts per delivery, the alerts' and the integrators' notices'.",
    ALERT_RETRY_BASE_MS: 'Attempt n+1 waits this × 2^(n-1), at most an hour.',
  },
  refine: (settings, ctx, appEnv) => {
    requireAlongside(settings, ctx, 'ALERT_WEBHOOK_SECRET', 'ALERT_WEBHOOK_URL');
    requireAlongside(settings, ctx, 'ALERT_WEBHOOK_URL', 'ALERT_WEBHOOK_SECRET');
    if (appEnv === 'production') requireHttps(settings, ctx, ['ALERT_WEBHOOK_URL']);
    // A URL fetch refuses would pass the start and fail every delivery (and its error would carry
    // the value, credentials included).
    const problem = settings.ALERT_WEBHOOK_URL && webhookUrlProblem(settings.ALERT_WEBHOOK_URL);
    if (problem) ctx.addIssue({ code: 'custom', path: ['ALERT_WEBHOOK_URL'], message: problem });
  },
});

/** What the alerts read of the settings: their own, the relay's, the balance's and the service's. */
export type AlertSettingsSource = SettingsOf<typeof ALERT_SETTINGS> & MailSettings & BalanceSettings & Pick<Env, 'APP_ENV' | 'SERVICE_NAME'>;

export interface WebhookSettings {
  url: string;
  secret: string;
  timeoutMs: number;
}


export interface AlertSettings {
  webhook?: WebhookSettings;
  email?: EmailSettings;
  lowBalanceDefaultCentavos: number;
  repeatIntervalSeconds: number;
  maxAttempts: number;
  retryBaseMs: number;
  serviceName: string;
  appEnv: Env['APP_ENV'];
}

/** The alert settings out of the validated ones (ALERT_SETTINGS and MAIL_SETTINGS refuse half-configured channels). */
export function alertSettingsFrom(env: AlertSettingsSource): AlertSettings {
  return {
    webhook:
      env.ALERT_WEBHOOK_URL && env.ALERT_WEBHOOK_SECRET
        ? { url: env.ALERT_WEBHOOK_URL, secret: env.ALERT_WEBHOOK_SECRET, timeoutMs: env.ALERT_WEBHOOK_TIMEOUT_MS }
        : undefined,
    email: emailSettingsFrom(env),
    lowBalanceDefaultCentavos: env.ALERT_LOW_BALANCE_DEFAULT_CENTAVOS,
    repeatIntervalSeconds: env.ALERT_REPEAT_INTERVAL_MINUTES * 60,
    maxAttempts: env.ALERT_MAX_ATTEMPTS,
    retryBaseMs: env.ALERT_RETRY_BASE_MS,
    serviceName: env.SERVICE_NAME,
    appEnv: env.APP_ENV,
  };
}

/** The process's alert settings. */
export function alertSettings(): AlertSettings {
  return alertSettingsFrom(currentSettings([PLATFORM_SETTINGS, MAIL_SETTINGS, BALANCE_SETTINGS, ALERT_SETTINGS]));
}

export function enabledChannels(settings: AlertSettings): AlertChannel[] {
  return [...(settings.webhook ? (['webhook'] as const) : []), ...(settings.email ? (['email'] as const) : [])];
}

/** How long to wait after the nth failed attempt: base × 2^(n-1), at most an hour. */
export function retryDelayMs(settings: Pick<AlertSettings, 'retryBaseMs'>, failedAttempts: number): number {
  return Math.min(settings.retryBaseMs * 2 ** (failedAttempts - 1), 3_600_000);
}
