import { z } from 'zod';

// Every setting of the app, validated once. A wrong or missing variable stops the start with a
// message that names it. Defaults are the contract's values and the bundled simulator's address,
// so the embedded development setup needs no configuration at all.

const integer = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');
const httpUrl = z.url({ protocol: /^https?$/ });
const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);

const SIMULATOR_DEFAULT_URL = 'http://127.0.0.1:4010';

export const envSchema = z
  .object({
    APP_ENV: z.enum(['development', 'production']).default('development'),
    DATABASE_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    PGLITE_DIR: z.string().min(1).default('.data/pglite'),
    DATABASE_POOL_MAX: integer(10, 1),
    MIGRATE_ON_START: flag(true),
    SEED_ON_START: flag(true),

    NEXTAUTH_SECRET: z.preprocess(emptyAsUnset, z.string().min(32).optional()),
    NEXTAUTH_URL: z.preprocess(emptyAsUnset, httpUrl.optional()),

    RENAP_BASE_URL: httpUrl.default(`${SIMULATOR_DEFAULT_URL}/renap`),
    RENAP_API_KEY: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
    RTU_BASE_URL: httpUrl.default(`${SIMULATOR_DEFAULT_URL}/rtu`),
    RTU_API_KEY: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
    CATALOG_BASE_URL: httpUrl.default(`${SIMULATOR_DEFAULT_URL}/catalog`),
    CATALOG_CLIENT_ID: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
    CATALOG_CLIENT_SECRET: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
    SOURCE_TIMEOUT_MS: integer(30_000, 1),

    RATE_LIMIT_GLOBAL_MAX: integer(100, 1),
    RATE_LIMIT_GLOBAL_WINDOW_SECONDS: integer(900, 1),
    RATE_LIMIT_RENAP_PER_MINUTE: integer(30, 1),
    RATE_LIMIT_RTU_PER_MINUTE: integer(50, 1),
    RATE_LIMIT_CATALOG_PER_MINUTE: integer(30, 1),
    TRUSTED_PROXY_HOPS: integer(0),
    MAX_BODY_BYTES: integer(16_384, 256),

    INTEGRATION_CACHE_REFRESH_MS: integer(2_000, 100),
    HOLD_SWEEP_AFTER_SECONDS: integer(60, 1),
    HOLD_SWEEP_INTERVAL_SECONDS: integer(15, 1),

    // How often queued records are added to the dashboard's hourly rollups (lib/rollups).
    ROLLUP_INTERVAL_MS: integer(2_000, 100),
    // Query records older than this are purged, in batches, once a day (lib/retention).
    QUERY_RECORD_RETENTION_MONTHS: integer(24, 1),
    // When set, each month's records are written there as CSV before they are purged.
    QUERY_RECORD_RETENTION_EXPORT_DIR: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
    // The most rows one CSV export of query records may hold.
    CSV_EXPORT_MAX_ROWS: integer(5_000_000, 1),

    UPSTASH_REDIS_REST_URL: z.preprocess(emptyAsUnset, httpUrl.optional()),
    UPSTASH_REDIS_REST_TOKEN: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
    REDIS_URL: z.preprocess(emptyAsUnset, z.url({ protocol: /^rediss?$/ }).optional()),

    SIMULATOR_PORT: integer(4010, 1),
    SIMULATOR_SEED: integer(20_260_101),
  })
  .superRefine((env, ctx) => {
    // The sweeper must never void the hold of a lookup that is still waiting for its source.
    if (env.HOLD_SWEEP_AFTER_SECONDS * 1000 <= env.SOURCE_TIMEOUT_MS) {
      ctx.addIssue({ code: 'custom', path: ['HOLD_SWEEP_AFTER_SECONDS'], message: 'must be longer than SOURCE_TIMEOUT_MS' });
    }
    if (env.APP_ENV !== 'production') return;
    // Production never runs on the embedded database or the simulator's development keys.
    const required: Array<keyof typeof env> = [
      'DATABASE_URL',
      'NEXTAUTH_SECRET',
      'NEXTAUTH_URL',
      'RENAP_API_KEY',
      'RTU_API_KEY',
      'CATALOG_CLIENT_ID',
      'CATALOG_CLIENT_SECRET',
    ];
    for (const name of required) {
      if (env[name] === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is required when APP_ENV=production' });
      }
    }
    if (env.SEED_ON_START) {
      ctx.addIssue({ code: 'custom', path: ['SEED_ON_START'], message: 'must be false in production: nothing is seeded implicitly' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** Validates a set of variables; throws EnvError naming each wrong or missing one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // In production the seed is off unless someone explicitly (and wrongly) turns it on.
  const withDefaults =
    source.APP_ENV === 'production' && source.SEED_ON_START === undefined ? { ...source, SEED_ON_START: 'false' } : source;
  const result = envSchema.safeParse(withDefaults);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  return result.data;
}

const cache = globalThis as typeof globalThis & { __gatewayEnv?: Env };

/** The process's validated settings, parsed on first use. */
export function env(): Env {
  cache.__gatewayEnv ??= parseEnv(process.env);
  return cache.__gatewayEnv;
}

/** Development credentials for the bundled simulator; production must set real ones. */
export const SIMULATOR_DEV_CREDENTIALS = {
  renapApiKey: 'sim-renap-key',
  rtuApiKey: 'sim-rtu-key',
  catalogClientId: 'sim-catalog-client',
  catalogClientSecret: 'sim-catalog-secret',
} as const;
