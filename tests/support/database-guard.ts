// Tests create and drop whole databases: they must never be pointed at a shared server.

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Throws unless `url` is a PostgreSQL URL on this machine. */
export function assertLocalDatabaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('DATABASE_URL is not a valid URL; tests need a local PostgreSQL such as postgres://postgres@127.0.0.1:55432/postgres');
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) {
    throw new Error(`DATABASE_URL must be a postgres:// URL for the tests (got ${parsed.protocol}//)`);
  }
  if (!LOCAL_HOSTS.has(parsed.hostname)) {
    throw new Error(
      `Refusing to run tests against ${parsed.hostname}: tests create and drop databases, so DATABASE_URL must point at ` +
        '127.0.0.1 or localhost (a throwaway cluster, see .ci/run).',
    );
  }
  return parsed;
}
