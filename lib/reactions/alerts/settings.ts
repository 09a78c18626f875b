import type { AlertChannel } from '@/db/schema';
import type { Env } from '@/lib/platform/settings/env';
import { emailSettingsFrom, type EmailSettings } from '@/lib/platform/mail/smtp';

export type { EmailSettings };

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

/** The alert settings out of the validated environment (lib/platform/settings/env.ts refuses half-configured channels). */
export function alertSettingsFrom(env: Env): AlertSettings {
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

export function enabledChannels(settings: AlertSettings): AlertChannel[] {
  return [...(settings.webhook ? (['webhook'] as const) : []), ...(settings.email ? (['email'] as const) : [])];
}

/** How long to wait after the nth failed attempt: base × 2^(n-1), at most an hour. */
export function retryDelayMs(settings: Pick<AlertSettings, 'retryBaseMs'>, failedAttempts: number): number {
  return Math.min(settings.retryBaseMs * 2 ** (failedAttempts - 1), 3_600_000);
}
