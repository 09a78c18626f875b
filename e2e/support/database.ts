import postgres from 'postgres';

/**
 * Runs `work` with a connection to the app's database: its own on PostgreSQL, or on PGlite through
 * the socket the app shares it on (the CLI's way in; one session, so keep it short). For what no
 * page can set up, such as an integration created months ago.
 */
export async function withAppDatabase<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const url = process.env.E2E_DATABASE_URL;
  const socket = process.env.E2E_DATABASE_SOCKET;
  if (!url && !socket) throw new Error('Run the e2e suite through playwright.config.ts (its global setup names the database).');
  const sql = url
    ? postgres(url, { max: 1, onnotice: () => {} })
    : postgres({ path: socket, max: 1, prepare: false, connect_timeout: 5, onnotice: () => {} });
  try {
    return await work(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
