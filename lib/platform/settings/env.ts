import { z } from 'zod';
import { PASSWORD_HASH_COSTS } from '../security/passwords';
import { defineSettings, type SettingsOf } from './fragment';
import { requireHttps, requireSet } from './rules';
import { emptyAsUnset, flag, httpUrl, integer, optional } from './values';

// The platform's own settings: the database, logging, sessions and their secrets, the HTTP limits
// and timings, metrics, the shared limits' store and the simulator. Each capability declares its
// own beside its code (lib/README.md, "Settings"). Defaults are the contract's values, so the
// embedded development setup needs no configuration at all.

export const PLATFORM_SETTINGS = defineSettings({
  title: 'Platform (lib/platform/settings/env.ts)',
  shape: {
    APP_ENV: z.enum(['development', 'production']),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
    PGLITE_DIR: z.string().min(1).default('.data/pglite'),
    DATABASE_POOL_MAX: integer(10, 1),
    // A PgBouncer in transaction mode older than 1.21, or without max_prepared_statements, cannot
    // keep a statement prepared across transactions (db/client.ts).
    DATABASE_PREPARED_STATEMENTS: flag(true),
    MIGRATE_ON_START: flag(true),
    SEED_ON_START: flag(true),
    // `low` (16 MiB instead of 128 MiB, an eighth of the CPU) is for test suites that create and
    // sign in hundreds of people. Stored hashes keep their own cost whichever is set.
    PASSWORD_HASH_COST: z.enum(PASSWORD_HASH_COSTS).default('standard'),
    NEXTAUTH_SECRET: optional(z.string().min(32)),
    NEXTAUTH_URL: optional(httpUrl),
    CONSOLE_TWO_FACTOR_REQUIRED: flag(true),
    TWO_FACTOR_ENCRYPTION_KEY: optional(z.string().min(32)),
    RATE_LIMIT_GLOBAL_MAX: integer(100, 1),
    RATE_LIMIT_GLOBAL_WINDOW_SECONDS: integer(900, 1),
    RATE_LIMIT_RENAP_PER_MINUTE: integer(30, 1),
    RATE_LIMIT_RTU_PER_MINUTE: integer(50, 1),
    RATE_LIMIT_CATALOG_PER_MINUTE: integer(30, 1),
    TRUSTED_PROXY_HOPS: integer(0),
    RATE_LIMIT_IPV6_PREFIX_LENGTH: integer(64, 1, 128),
    RATE_LIMIT_SIGN_IN_PER_MINUTE: integer(30, 1),
    // A reader needs a few; a flood is refused.
    RATE_LIMIT_PUBLIC_PAGES_PER_MINUTE: integer(60, 1),
    // Apart from the lookups' global limit: a client throttled on its lookups can still see whether the sources answer.
    RATE_LIMIT_STATUS_API_PER_MINUTE: integer(60, 1),
    // Apart from the lookups' global limit: a provider sends bursts from few addresses.
    RATE_LIMIT_PAYMENT_WEBHOOKS_PER_MINUTE: integer(300, 1),
    RATE_LIMIT_MEMORY_MAX_KEYS: integer(200_000, 1_000),
    MAX_BODY_BYTES: integer(16_384, 256),
    // Outside the lookups' limits, so a system that checks its balance never spends what its lookups need.
    ACCOUNT_API_PER_MINUTE: integer(60, 1),
    SERVICE_NAME: z.string().trim().min(1).max(120).default('Pasarela de consultas de contribuyentes'),
    CSV_EXPORT_MAX_ROWS: integer(5_000_000, 1),
    METRICS_TOKEN: optional(z.string().min(16)),
    METRICS_INTEGRATION_LABEL: flag(false),
    // Both read by server.mjs too.
    SHUTDOWN_DRAIN_TIMEOUT_MS: integer(25_000, 0),
    REQUEST_RECEIVE_TIMEOUT_MS: integer(30_000, 1_000),
    SUPPORT_CONTACT_EMAIL: optional(z.email()),
    UPSTASH_REDIS_REST_URL: optional(httpUrl),
    UPSTASH_REDIS_REST_TOKEN: optional(z.string().min(1)),
    REDIS_URL: optional(z.url({ protocol: /^rediss?$/ })),
    SIMULATOR_PORT: integer(4010, 1),
    SIMULATOR_SEED: integer(20_260_101),
  },
  docs: {
    APP_ENV: 'development or production (separate deployments, separate databases and credentials). Unset: production when NODE_ENV=production (a built app), else development.',
    LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent: JSON lines on stdout, secrets redacted.',
    DATABASE_URL: 'PostgreSQL 15 or later (postgres://). Unset: the embedded PGlite under PGLITE_DIR.',
    PGLITE_DIR: "The embedded database's directory (development), shared with the CLI through a socket beside it while the app runs.",
    DATABASE_POOL_MAX: 'Connections each instance keeps to PostgreSQL (one more listens for announcements).',
    DATABASE_PREPARED_STATEMENTS: "Keeps the lookups' statements prepared per connection (one round trip each instead of two); false behind PgBouncer in transaction mode older than 1.21 or without max_prepared_statements.",
    MIGRATE_ON_START: 'Applies the migrations when the server starts (`npm run db:migrate` applies them too).',
    SEED_ON_START: 'Seeds one administrator and a demo integration on an empty development database. Unset: false in production, which refuses true.',
    PASSWORD_HASH_COST: "scrypt's cost for new password hashes: standard (OWASP's, 128 MiB) or low, for test suites only; production refuses low.",
    NEXTAUTH_SECRET: 'Signs console and portal sessions, the same on every instance: at least 32 random characters. Development generates one into .data/.',
    NEXTAUTH_URL: 'The public address (https:// in production). Development without it: the host and port the browser used.',
    CONSOLE_TWO_FACTOR_REQUIRED: 'Every console user signs in with a second factor (TOTP). Unset: true in production (false there is logged at start), false in development; its old name CONSOLE_ADMIN_TWO_FACTOR_REQUIRED is read when it is unset.',
    TWO_FACTOR_ENCRYPTION_KEY: 'The key (32+ characters) the TOTP secrets are sealed with. Unset: derived from NEXTAUTH_SECRET, so set it before rotating that one.',
    RATE_LIMIT_GLOBAL_MAX: 'Lookups per client IP in the global window.',
    RATE_LIMIT_GLOBAL_WINDOW_SECONDS: 'The global per-IP window.',
    RATE_LIMIT_RENAP_PER_MINUTE: 'RENAP lookups per integration and minute, unless the integration has its own.',
    RATE_LIMIT_RTU_PER_MINUTE: 'RTU lookups per integration and minute, unless the integration has its own.',
    RATE_LIMIT_CATALOG_PER_MINUTE: 'Catalog lookups per integration and minute, unless the integration has its own.',
    TRUSTED_PROXY_HOPS: "Proxies in front of the app that append to X-Forwarded-For (0: the socket's address).",
    RATE_LIMIT_IPV6_PREFIX_LENGTH: 'IPv6 clients are counted per network of this many bits (one host usually holds a whole /64).',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: 'Console and portal sign-ins per client IP and minute, refused before any database work or password hash.',
    RATE_LIMIT_PUBLIC_PAGES_PER_MINUTE: "The public pages (/, /docs, /estado) and the sign-in pages' reads per client IP and minute, one budget for all.",
    RATE_LIMIT_STATUS_API_PER_MINUTE: "GET /api/estado per client IP and minute, apart from the lookups' global limit.",
    RATE_LIMIT_PAYMENT_WEBHOOKS_PER_MINUTE: "POST /api/pagos/recurrente per sending address and minute, apart from the lookups' global limit.",
    RATE_LIMIT_MEMORY_MAX_KEYS: 'The in-memory limiter forgets its least recently used windows beyond this many.',
    MAX_BODY_BYTES: 'The largest request body the lookups take, in bytes.',
    ACCOUNT_API_PER_MINUTE: "Reads of an integration's own account (GET /api/cuenta, /api/cuenta/movimientos) per integration and minute, a counter of their own.",
    SERVICE_NAME: 'Who issues the statements and sends the mail, as their heading says.',
    CSV_EXPORT_MAX_ROWS: 'The most rows one CSV export of query records may hold.',
    METRICS_TOKEN: 'The bearer token GET /api/metrics answers to (16+ characters); unset, it answers 404.',
    METRICS_INTEGRATION_LABEL: "Adds the integration's name as a label of the lookup counter (one series per integration).",
    SHUTDOWN_DRAIN_TIMEOUT_MS: 'On SIGTERM, how long an instance waits for lookups in flight before it exits.',
    REQUEST_RECEIVE_TIMEOUT_MS: "How long a request's body may take to arrive (its headers: 20 s); past it, 408.",
    SUPPORT_CONTACT_EMAIL: 'Where integrators write when an answer says "Escribe a soporte", shown on /docs with the request id to quote.',
    UPSTASH_REDIS_REST_URL: "Upstash's REST address for the limits every instance shares (https:// in production).",
    UPSTASH_REDIS_REST_TOKEN: "Upstash's token.",
    REDIS_URL: 'A Redis of your own for the shared limits (redis:// or rediss://). Neither: each instance limits in memory.',
    SIMULATOR_PORT: "The bundled simulator's port; the sources', FEL's and Recurrente's development addresses follow it.",
    SIMULATOR_SEED: "The seed of the simulator's population.",
  },
  input: (source, appEnv) => {
    const production = appEnv === 'production';
    return {
      APP_ENV: appEnv,
      // In production the seed is off unless someone explicitly (and wrongly) turns it on.
      SEED_ON_START: source.SEED_ON_START ?? (production ? 'false' : undefined),
      // CONSOLE_ADMIN_TWO_FACTOR_REQUIRED is its name from when it covered administrators only: read
      // when the new one is unset, so a deployment that relaxed it keeps its choice.
      CONSOLE_TWO_FACTOR_REQUIRED:
        emptyAsUnset(source.CONSOLE_TWO_FACTOR_REQUIRED) ?? emptyAsUnset(source.CONSOLE_ADMIN_TWO_FACTOR_REQUIRED) ?? (production ? 'true' : 'false'),
    };
  },
  refine: (settings, ctx, appEnv) => {
    if (appEnv !== 'production') return;
    // Production never runs on the embedded database, and /docs must send integrators somewhere.
    requireSet(settings, ctx, ['DATABASE_URL', 'NEXTAUTH_SECRET', 'NEXTAUTH_URL', 'SUPPORT_CONTACT_EMAIL'], 'APP_ENV=production');
    if (settings.SEED_ON_START) {
      ctx.addIssue({ code: 'custom', path: ['SEED_ON_START'], message: 'must be false in production: nothing is seeded implicitly' });
    }
    if (settings.PASSWORD_HASH_COST !== 'standard') {
      ctx.addIssue({ code: 'custom', path: ['PASSWORD_HASH_COST'], message: 'must be standard in production: passwords are hashed at OWASP\'s cost' });
    }
    // Session cookies and the limits' token never travel in clear text.
    requireHttps(settings, ctx, ['NEXTAUTH_URL', 'UPSTASH_REDIS_REST_URL']);
  },
});

export type Env = SettingsOf<typeof PLATFORM_SETTINGS>;

/** The process's platform settings, read on first use. */
export function env(): Env {
  return PLATFORM_SETTINGS.current();
}
