import { z } from 'zod';
import { defineSettings, type SettingsOf, type SettingsSource } from '@/lib/platform/settings/fragment';
import { requireSet } from '@/lib/platform/settings/rules';
import { emptyAsUnset, flag, httpUrl, integer, optional, simulatorUrl } from '@/lib/platform/settings/values';

// The upstream sources (docs/sources.md): their addresses and credentials, each call's ceiling, and
// each source's circuit breaker and bulkhead (guard.ts). Development needs none of them: the bundled
// simulator answers on SIMULATOR_PORT with its development credentials.

/** Development credentials for the bundled simulator; production must set real ones. */
export const SIMULATOR_DEV_CREDENTIALS = {
  renapApiKey: 'sim-renap-key',
  rtuApiKey: 'sim-rtu-key',
  catalogClientId: 'sim-catalog-client',
  catalogClientSecret: 'sim-catalog-secret',
} as const;

const SIMULATOR_DEFAULT_URL = 'http://127.0.0.1:4010';
const UPSTREAM_URLS = ['RENAP_BASE_URL', 'RTU_BASE_URL', 'CATALOG_BASE_URL'] as const;
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function upstreamUrlProblem(url: string, behindSidecar: boolean): string | undefined {
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return undefined;
  if (behindSidecar && LOOPBACK_HOSTS.test(parsed.hostname)) return undefined;
  return behindSidecar
    ? 'must be https://, or http:// to this host (127.0.0.1, ::1, localhost) where the TLS sidecar listens'
    : 'must be an https:// URL when APP_ENV=production (or set UPSTREAM_TLS_SIDECAR=true for a TLS sidecar on this host)';
}

/**
 * Production never falls back to the simulator's addresses, and never sends its keys in clear text.
 * Read from the variables themselves: development's defaults stand in for unset ones.
 */
function upstreamUrlProblems(source: SettingsSource, appEnv: string): string[] {
  if (appEnv !== 'production') return [];
  const behindSidecar = source.UPSTREAM_TLS_SIDECAR === 'true' || source.UPSTREAM_TLS_SIDECAR === '1';
  return UPSTREAM_URLS.flatMap((name) => {
    const url = source[name];
    const problem = !url ? 'is required when APP_ENV=production' : URL.canParse(url) ? upstreamUrlProblem(url, behindSidecar) : undefined;
    return problem ? [`${name}: ${problem}`] : [];
  });
}

export const SOURCE_SETTINGS = defineSettings({
  title: 'Upstream sources (lib/sources)',
  shape: {
    RENAP_BASE_URL: z.preprocess(emptyAsUnset, httpUrl.default(`${SIMULATOR_DEFAULT_URL}/renap`)),
    RENAP_API_KEY: optional(z.string().min(1)),
    RTU_BASE_URL: z.preprocess(emptyAsUnset, httpUrl.default(`${SIMULATOR_DEFAULT_URL}/rtu`)),
    RTU_API_KEY: optional(z.string().min(1)),
    CATALOG_BASE_URL: z.preprocess(emptyAsUnset, httpUrl.default(`${SIMULATOR_DEFAULT_URL}/catalog`)),
    CATALOG_CLIENT_ID: optional(z.string().min(1)),
    CATALOG_CLIENT_SECRET: optional(z.string().min(1)),
    SOURCE_TIMEOUT_MS: integer(30_000, 1),
    // The simulator's fault identifiers provoke failures on purpose, one contract error at a time:
    // development's breaker is off unless set.
    SOURCE_BREAKER_FAILURES: integer(5, 0),
    SOURCE_BREAKER_COOLDOWN_MS: integer(10_000, 100),
    SOURCE_BULKHEAD_LIMIT: integer(64, 1),
    SOURCE_BULKHEAD_QUEUE: integer(64, 0),
    UPSTREAM_TLS_SIDECAR: flag(false),
  },
  docs: {
    RENAP_BASE_URL: "RENAP's base URL: https:// in production (or http:// to a TLS sidecar on this host's loopback). Development: the simulator's /renap on SIMULATOR_PORT.",
    RENAP_API_KEY: "RENAP's key. Development: the simulator's.",
    RTU_BASE_URL: "The RTU's base URL, as RENAP_BASE_URL. Development: the simulator's /rtu.",
    RTU_API_KEY: "The RTU's key. Development: the simulator's.",
    CATALOG_BASE_URL: "The catalogs' base URL, as RENAP_BASE_URL. Development: the simulator's /catalog.",
    CATALOG_CLIENT_ID: "The catalogs' client id. Development: the simulator's.",
    CATALOG_CLIENT_SECRET: "The catalogs' client secret. Development: the simulator's.",
    SOURCE_TIMEOUT_MS: 'Ceiling of a call to a source, then 502 (the contract says 30 seconds).',
    SOURCE_BREAKER_FAILURES: "Failures in a row (no answer, time-out, 5xx) that open a source's breaker; 0 turns it off. Unset: 5 in production, 0 in development.",
    SOURCE_BREAKER_COOLDOWN_MS: 'How long an open breaker waits before one probe goes through.',
    SOURCE_BULKHEAD_LIMIT: 'Calls to one source at once; past this and the queue, a call fails at once like an open breaker.',
    SOURCE_BULKHEAD_QUEUE: 'Calls to one source waiting for their turn.',
    UPSTREAM_TLS_SIDECAR: "Production only: lets the sources' base URLs be http:// to this host's loopback (127.0.0.1, ::1, localhost), where a TLS sidecar listens.",
  },
  input: (source, appEnv) => {
    // The simulator's three addresses follow SIMULATOR_PORT in development (one setting to move it).
    const simulator = simulatorUrl(source);
    return {
      RENAP_BASE_URL: emptyAsUnset(source.RENAP_BASE_URL) ?? `${simulator}/renap`,
      RTU_BASE_URL: emptyAsUnset(source.RTU_BASE_URL) ?? `${simulator}/rtu`,
      CATALOG_BASE_URL: emptyAsUnset(source.CATALOG_BASE_URL) ?? `${simulator}/catalog`,
      SOURCE_BREAKER_FAILURES: emptyAsUnset(source.SOURCE_BREAKER_FAILURES) ?? (appEnv === 'production' ? '5' : '0'),
    };
  },
  refine: (settings, ctx, appEnv) => {
    // Production never calls a source with the simulator's development keys.
    if (appEnv === 'production') requireSet(settings, ctx, ['RENAP_API_KEY', 'RTU_API_KEY', 'CATALOG_CLIENT_ID', 'CATALOG_CLIENT_SECRET'], 'APP_ENV=production');
  },
  sourceProblems: upstreamUrlProblems,
});

export type SourceSettings = SettingsOf<typeof SOURCE_SETTINGS>;

/** The process's source settings, read on first use. */
export const sourceSettings = (): SourceSettings => SOURCE_SETTINGS.current();
