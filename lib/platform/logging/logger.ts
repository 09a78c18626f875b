import pino, { type Logger } from 'pino';
import { currentLogBindings } from './context';
import { serializeError } from './errors';
import { peekProcessSlot, processSlot, setProcessSlot } from '@/lib/platform/runtime/process-state';

export type { Logger };

/**
 * Keys whose values never reach a log line, wherever they sit in a logged object (one level of
 * nesting is enough for what this app logs): credentials, secrets, their hashes, and the
 * parameters of a query, which can hold any of them.
 */
const SECRET_KEYS = [
  'password',
  'passwordHash',
  'password_hash',
  'token',
  'tokenHash',
  'token_hash',
  'secret',
  'clientSecret',
  'apiKey',
  'authorization',
  'cookie',
  'x-integracion-token',
  'sessionId',
  'params',
  'parameters',
];
const SECRET_KEY_SET: ReadonlySet<string> = new Set(SECRET_KEYS);
const REDACTED = '[redacted]';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A copy of `object` with the values of secret keys replaced, or `object` itself when it has none. */
function withoutSecretValues(object: Record<string, unknown>, nested: boolean): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    const replacement = SECRET_KEY_SET.has(key) ? REDACTED : nested && isPlainObject(value) ? withoutSecretValues(value, false) : value;
    if (replacement !== value) (copy ??= { ...object })[key] = replacement;
  }
  return copy ?? object;
}

/**
 * Redaction by key, on the logged object and one level inside it: the same reach as pino's
 * `redact` with `key` and `*.key` paths, at a small part of its cost (its wildcard paths took
 * about 80 µs of every line, the most expensive part of writing one: docs/performance.md,
 * "What changed, and what each step was worth").
 */
export function redactSecretKeys(object: Record<string, unknown>): Record<string, unknown> {
  return withoutSecretValues(object, true);
}

/**
 * The last line of defence, on the text about to be written: shapes that are always secrets
 * (integration tokens, scrypt password hashes, SHA-256 token hashes) are masked even when they
 * arrive inside a message.
 */
const SECRET_SHAPES: Array<[RegExp, string]> = [
  [/tlk_[A-Za-z0-9_-]{16,}/, 'tlk_[redacted]'],
  [/scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+/, '[redacted password hash]'],
  [/\b[0-9a-f]{64}\b/, '[redacted hash]'],
];
// All shapes in one pass over the line (each line is scanned once, not once per shape); the named
// group that matched says which shape it was, whatever groups a shape holds itself.
const ANY_SECRET_SHAPE = new RegExp(SECRET_SHAPES.map(([shape], index) => `(?<shape${index}>${shape.source})`).join('|'), 'g');

export function maskSecretShapes(text: string): string {
  return text.replace(ANY_SECRET_SHAPE, (...args: unknown[]) => {
    const groups = args.at(-1) as Record<string, string | undefined>;
    return SECRET_SHAPES[SECRET_SHAPES.findIndex((_, index) => groups[`shape${index}`] !== undefined)]![1];
  });
}

/** pino's levels, most severe first, and silent (nothing). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LEVELS: ReadonlySet<string> = new Set(LOG_LEVELS);

/** Options shared by the app's logger and the tests that check what it writes. */
export function loggerOptions(level = process.env.LOG_LEVEL): pino.LoggerOptions {
  return {
    // The platform's settings (settings/env.ts) validate LOG_LEVEL for the start; the logger must exist before that can report.
    level: level && LEVELS.has(level) ? level : 'info',
    formatters: { log: redactSecretKeys, bindings: redactSecretKeys },
    serializers: { err: serializeError, error: serializeError },
    // The request id (and whatever else the request's context holds) on every line.
    // A copy: pino merges the line's own fields into the object the mixin returns.
    mixin: () => ({ ...currentLogBindings() }),
    hooks: { streamWrite: maskSecretShapes },
  };
}

interface LogDestination {
  fd: 1 | 2;
  level?: () => string;
}

function createRootLogger(): Logger {
  const destination = peekProcessSlot<LogDestination>('logDestination');
  return pino(loggerOptions(destination?.level?.()), pino.destination({ fd: destination?.fd ?? 1, sync: true }));
}

/** The process's logger: JSON lines on stdout (stderr in the CLI, whose stdout is its answer). */
export function rootLogger(): Logger {
  return processSlot('logger', createRootLogger);
}

/**
 * For programs whose stdout is their output (the CLI): call before anything logs. `level` is asked
 * when the first line is logged (after the settings files are read), instead of LOG_LEVEL, which
 * is the app's.
 */
export function sendLogsToStderr(level: () => string): void {
  if (peekProcessSlot('logger')) throw new Error('sendLogsToStderr() must run before the first log line');
  setProcessSlot<LogDestination>('logDestination', { fd: 2, level });
}

/** A logger whose lines say which part of the app wrote them. */
export function logger(component: string): Logger {
  return rootLogger().child({ component });
}
