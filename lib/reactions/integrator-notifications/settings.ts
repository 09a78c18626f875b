import { paymentsConfigured } from '@/lib/providers/payments/configured';
import { PAYMENT_SETTINGS, type PaymentSettings } from '@/lib/providers/payments/settings';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { alertSettingsFrom, type AlertSettings, type EmailSettings } from '@/lib/reactions/alerts/settings';
import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import type { TargetPolicy } from './targets';

/** What the integrator notifications need from the environment (lib/platform/settings/env.ts). */
export interface NotificationSettings {
  /** The alerts' SMTP server (ALERT_SMTP_*); undefined: no e-mails, only webhooks. */
  email?: Omit<EmailSettings, 'to'>;
  webhookTimeoutMs: number;
  repeatIntervalSeconds: number;
  /** A source unavailable this long (across the instances' breakers) is told to the integrations that use it. */
  sourceOutageSeconds: number;
  targets: TargetPolicy;
  serviceName: string;
  appEnv: Env['APP_ENV'];
  lowBalanceDefaultCentavos: number;
  /** The portal's public address for the notices' links (NEXTAUTH_URL's /portal); unset, they name the page. */
  portalUrl?: string;
  /** Whether online payments are on: the balance notices say how to top up accordingly. */
  paysOnline?: boolean;
  /** The outbox's retries (the alerts' ALERT_MAX_ATTEMPTS, ALERT_RETRY_BASE_MS). */
  alerts: Pick<AlertSettings, 'maxAttempts' | 'retryBaseMs'>;
}

/** What the notifications read of the settings. */
export type NotificationSettingsSource = Env & PaymentSettings;

export function notificationSettingsFrom(env: NotificationSettingsSource): NotificationSettings {
  const alerts = alertSettingsFrom(env);
  const email = alerts.email && { ...alerts.email, to: undefined };
  return {
    email,
    webhookTimeoutMs: env.ALERT_WEBHOOK_TIMEOUT_MS,
    repeatIntervalSeconds: env.INTEGRATOR_NOTIFICATION_REPEAT_HOURS * 3_600,
    sourceOutageSeconds: env.INTEGRATOR_SOURCE_OUTAGE_MINUTES * 60,
    targets: { allowLocalTargets: env.INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS },
    serviceName: env.SERVICE_NAME,
    appEnv: env.APP_ENV,
    lowBalanceDefaultCentavos: env.ALERT_LOW_BALANCE_DEFAULT_CENTAVOS,
    portalUrl: env.NEXTAUTH_URL ? new URL('/portal', env.NEXTAUTH_URL).toString() : undefined,
    paysOnline: paymentsConfigured(env),
    alerts: { maxAttempts: alerts.maxAttempts, retryBaseMs: alerts.retryBaseMs },
  };
}

/** The process's notification settings. */
export function notificationSettings(): NotificationSettings {
  return notificationSettingsFrom(currentSettings([PLATFORM_SETTINGS, PAYMENT_SETTINGS]));
}
