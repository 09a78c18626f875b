import { z } from 'zod';
import { smtpHostProblem } from '@/lib/platform/security/outbound-urls';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireAlongside } from '@/lib/platform/settings/rules';
import { flag, integer, optional } from '@/lib/platform/settings/values';

// The deployment's SMTP relay, named ALERT_* from when only the alerts used it: the administrators'
// alerts, the integrators' notices and the portal's links all leave through it. Off until its
// host is given; a relay configured by half stops the start.
export const MAIL_SETTINGS = defineSettings({
  title: 'E-mail: the SMTP relay (lib/platform/mail)',
  shape: {
    ALERT_SMTP_HOST: optional(z.string().min(1)),
    ALERT_SMTP_PORT: integer(587, 1, 65_535),
    ALERT_SMTP_SECURE: flag(false),
    ALERT_SMTP_USER: optional(z.string().min(1)),
    ALERT_SMTP_PASS: optional(z.string().min(1)),
    ALERT_EMAIL_FROM: optional(z.email()),
    ALERT_EMAIL_TO: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() !== '' ? value.split(',').map((address) => address.trim()) : undefined),
      z.array(z.email()).min(1).optional(),
    ),
  },
  docs: {
    ALERT_SMTP_HOST: "The SMTP relay's host name or IP address (no smtp:// URL), for alerts, notices and the portal's links. Unset: no e-mail.",
    ALERT_SMTP_PORT: "The relay's port.",
    ALERT_SMTP_SECURE: 'true: TLS from the first byte (usually 465); false: STARTTLS, which production requires.',
    ALERT_SMTP_USER: "The relay's user: both it and the password or neither.",
    ALERT_SMTP_PASS: "The relay's password.",
    ALERT_EMAIL_FROM: "The sender's address; required with the host.",
    ALERT_EMAIL_TO: "The administrators' alerts' recipients, comma-separated. Unset: every active console administrator.",
  },
  refine: (settings, ctx) => {
    requireAlongside(settings, ctx, 'ALERT_EMAIL_FROM', 'ALERT_SMTP_HOST');
    for (const name of ['ALERT_SMTP_USER', 'ALERT_SMTP_PASS', 'ALERT_EMAIL_FROM', 'ALERT_EMAIL_TO'] as const) requireAlongside(settings, ctx, 'ALERT_SMTP_HOST', name);
    requireAlongside(settings, ctx, 'ALERT_SMTP_PASS', 'ALERT_SMTP_USER');
    requireAlongside(settings, ctx, 'ALERT_SMTP_USER', 'ALERT_SMTP_PASS');
    // A host nodemailer cannot reach would pass the start and fail every delivery (and its error
    // would carry the value, credentials included).
    const problem = settings.ALERT_SMTP_HOST && smtpHostProblem(settings.ALERT_SMTP_HOST);
    if (problem) ctx.addIssue({ code: 'custom', path: ['ALERT_SMTP_HOST'], message: problem });
  },
});

export type MailSettings = SettingsOf<typeof MAIL_SETTINGS>;
