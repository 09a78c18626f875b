/**
 * Errors as they may be logged or shown: type, message, code and stack frames, never the values
 * a failing query was given. drizzle's DrizzleQueryError puts the query's parameters in its
 * message (and so in its stack's first line), and PostgreSQL's errors carry `detail` ("Failing
 * row contains (…)"), which can hold a password hash or a token hash. What is kept is what an
 * operator needs to find the cause: the SQL text with its $n placeholders, the SQLSTATE and the
 * constraint, table or column it names.
 */
export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  stack?: string;
  cause?: LoggedError;
  errors?: LoggedError[];
}

const MAX_DEPTH = 4;
const MAX_AGGREGATED = 3;

/** The safe, serializable form of anything thrown (pino's `err` serializer). */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '(a value that is not an Error was thrown)' };
  const logged: LoggedError = { type: error.name || error.constructor?.name || 'Error', message: safeMessage(error) };
  const fields = error as Error & Record<string, unknown>;
  if (typeof fields.code === 'string') logged.code = fields.code;
  const constraint = fields.constraint_name ?? fields.constraint;
  const table = fields.table_name ?? fields.table;
  const column = fields.column_name ?? fields.column;
  if (typeof constraint === 'string') logged.constraint = constraint;
  if (typeof table === 'string') logged.table = table;
  if (typeof column === 'string') logged.column = column;
  const frames = stackFrames(error.stack);
  if (frames) logged.stack = frames;
  if (depth < MAX_DEPTH) {
    if (error.cause !== undefined) logged.cause = serializeError(error.cause, depth + 1);
    if (error instanceof AggregateError) logged.errors = error.errors.slice(0, MAX_AGGREGATED).map((inner) => serializeError(inner, depth + 1));
  }
  return logged;
}

/** One line for people (a failed start, the CLI): the safe messages of the error and its causes. */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: LoggedError | undefined = serializeError(error);
  while (current) {
    parts.push(current.code && !current.message.includes(current.code) ? `${current.message} (${current.code})` : current.message);
    current = current.cause ?? current.errors?.[0];
  }
  return parts.join(': ');
}

function safeMessage(error: Error): string {
  const fields = error as Error & { query?: unknown; params?: unknown; code?: unknown; severity?: unknown };
  // PostgreSQL (postgres.js and PGlite): SQLSTATE class 22, "data exception", quotes the offending
  // value in its message ('invalid input syntax for type integer: "…"'); say only what failed.
  // Other classes name constraints, tables and columns, not values.
  if (isSqlState(fields.code)) return fields.code.startsWith('22') ? `data exception (SQLSTATE ${fields.code})` : error.message;
  // drizzle: "Failed query: <sql>\nparams: <values>". The SQL text is kept, the values never.
  if (typeof fields.query === 'string' && 'params' in fields) return `Failed query: ${fields.query}`;
  return error.message;
}

function isSqlState(code: unknown): code is string {
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** The "at …" lines only: the first line of a stack repeats the (possibly unsafe) message. */
function stackFrames(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length ? frames.join('\n') : undefined;
}
