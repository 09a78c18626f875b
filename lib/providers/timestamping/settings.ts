import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireAlongside, requireHttps, requireSet } from '@/lib/platform/settings/rules';
import { httpUrl, integer, optional, simulatorUrl, unlessSet } from '@/lib/platform/settings/values';

// The RFC 3161 time-stamping authority (lib/providers/timestamping): where it answers, the
// certificate its tokens must chain to, its credentials if it sells its stamps, and how long to wait.

export const TIMESTAMPING_SETTINGS = defineSettings({
  title: 'Time stamps (lib/providers/timestamping)',
  shape: {
    TSA_URL: optional(httpUrl),
    TSA_CERTIFICATE_FILE: optional(z.string().trim().min(1)),
    // Secrets: never logged (the adapter logs nothing, and its outcomes name neither).
    TSA_USERNAME: optional(z.string().min(1)),
    TSA_PASSWORD: optional(z.string().min(1)),
    TSA_TIMEOUT_MS: integer(30_000, 100, 300_000),
  },
  docs: {
    TSA_URL:
      "The time-stamping authority's RFC 3161 HTTP address (https:// in production), which stamps the constancias log's head once a day. Unset in production: no time stamps (the log's heads are still signed). Outside production: the simulator's /tsa.",
    TSA_CERTIFICATE_FILE:
      "A PEM file with the authority's certificate or the CA it chains to; every token must verify against it. Required in production with TSA_URL. Unset outside production: the certificate is fetched from TSA_URL's /certificado, as the simulator serves it.",
    TSA_USERNAME: 'Secret: the HTTP basic authentication user, for an authority that asks for one.',
    TSA_PASSWORD: 'Secret: the HTTP basic authentication password (requires TSA_USERNAME).',
    TSA_TIMEOUT_MS: 'How long a time stamp request may take before it counts as unreachable (asking again is harmless).',
  },
  input: (source, appEnv) => {
    if (appEnv === 'production') return {};
    return unlessSet(source, { TSA_URL: `${simulatorUrl(source)}/tsa` });
  },
  refine: (settings, ctx, appEnv) => {
    requireAlongside(settings, ctx, 'TSA_USERNAME', 'TSA_PASSWORD');
    if (appEnv !== 'production' || !settings.TSA_URL) return;
    // A certificate fetched from the authority it is meant to check would prove nothing.
    requireSet(settings, ctx, ['TSA_CERTIFICATE_FILE'], 'APP_ENV=production and TSA_URL');
    requireHttps(settings, ctx, ['TSA_URL']);
  },
});

export type TimestampingSettings = SettingsOf<typeof TIMESTAMPING_SETTINGS>;

/** The process's time-stamping settings, read on first use. */
export const timestampingSettings = (): TimestampingSettings => TIMESTAMPING_SETTINGS.current();
