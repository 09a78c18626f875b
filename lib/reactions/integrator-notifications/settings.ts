import { BALANCE_SETTINGS } from '@/lib/core/billing/settings';
import { MAIL_SETTINGS } from '@/lib/platform/mail/settings';
import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import { currentSettings, defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';
import { OUTBOUND_TARGET_DOCS, OUTBOUND_TARGET_SHAPE, outboundTargetSettingsProblem } from '@/lib/platform/settings/outbound-targets';
import { paymentsConfigured } from '@/lib/providers/payments/configured';
import { PAYMENT_SETTINGS, type PaymentSettings } from '@/lib/providers/payments/settings';
import { ALERT_SETTINGS, alertSettingsFrom, type AlertSettings, type AlertSettingsSource, type EmailSettings } from '@/lib/reactions/alerts/settings';
import type { TargetPolicy } from '@/lib/platform/security/outbound-targets';

// Notices to each integration's own contacts and webhook: e-mails go through the relay
// (lib/platform/mail), deliveries through the alerts' outbox with its retries.
export const INTEGRATOR_NOTIFICATION_SETTINGS = defineSettings({
  title: 'Notifications to integrators (lib/reactions/integrator-notifications)',
  shape: {
    INTEGRATOR_NOTIFICATION_REPEAT_HOURS: integer(24, 1, 24 * 31),
    INTEGRATOR_SOURCE_OUTAGE_MINUTES: integer(10, 1, 24 * 60),
    // The policy's setting (lib/platform/settings/outbound-targets.ts), which other rungs read too.
    ...OUTBOUND_TARGET_SHAPE,
  },
  docs: {
    INTEGRATOR_NOTIFICATION_REPEAT_HOURS: "At most one notice per condition (one integration's low balance, its exhaustion) this often, across every instance.",
    INTEGRATOR_SOURCE_OUTAGE_MINUTES: "A source unavailable this long (its breaker open on any instance) is told to the technical contacts of the integrations that use it; then its recovery.",
    ...OUTBOUND_TARGET_DOCS,
  },
  refine: (settings, ctx, appEnv) => {
    const problem = outboundTargetSettingsProblem(settings, appEnv);
    if (problem) ctx.addIssue({ code: 'custom', ...problem });
  },
});

/** What the integrator notifications need from the settings. */
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

/** What the notifications read of the settings: their own, the alerts' (and what those read), the payments' and the public address. */
export type NotificationSettingsSource = SettingsOf<typeof INTEGRATOR_NOTIFICATION_SETTINGS> & AlertSettingsSource & PaymentSettings & Pick<Env, 'NEXTAUTH_URL'>;

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
  return notificationSettingsFrom(currentSettings([PLATFORM_SETTINGS, MAIL_SETTINGS, BALANCE_SETTINGS, ALERT_SETTINGS, PAYMENT_SETTINGS, INTEGRATOR_NOTIFICATION_SETTINGS]));
}
