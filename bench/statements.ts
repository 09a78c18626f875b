// Database statements per lookup, counted by PostgreSQL itself (pg_stat_statements), not estimated:
// the counters are reset before a timed run and read after it. Each statement the app sends is one
// round trip to the database (BEGIN and COMMIT included), so this is the round-trip count.
// Background jobs (rollups, sweeper, checkpoints) run during the timed run too; over thousands of
// lookups they add a few hundredths to the figure.
import postgres from 'postgres';

export interface StatementCount {
  total: number;
  /** The statements by count, most frequent first, their text shortened. */
  statements: Array<{ query: string; calls: number; meanMs: number }>;
}

export interface StatementCounter {
  reset(): Promise<void>;
  read(): Promise<StatementCount>;
  close(): Promise<void>;
}

/** The settings a cluster needs for the counter; without them counting is skipped. */
export const STATEMENT_COUNTING_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_utility': 'on' };

/** A counter on `url`, or undefined (with the reason) when the server does not load pg_stat_statements. */
export async function statementCounter(url: string): Promise<StatementCounter | { unavailable: string }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create extension if not exists pg_stat_statements`;
    await sql`select pg_stat_statements_reset()`;
  } catch (error) {
    await sql.end();
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
  return {
    async reset() {
      await sql`select pg_stat_statements_reset()`;
    },
    async read() {
      // The counter's own statements are left out; everything else came from the app.
      const rows = await sql<Array<{ query: string; calls: string; mean_ms: number }>>`
        select s.query, s.calls::text as calls, s.mean_exec_time::float8 as mean_ms
          from pg_stat_statements s
         where s.query not ilike '%pg_stat_statements%'
         order by s.calls desc`;
      const statements = rows.map((row) => ({ query: row.query.replace(/\s+/g, ' ').slice(0, 90), calls: Number(row.calls), meanMs: row.mean_ms }));
      return { total: statements.reduce((sum, statement) => sum + statement.calls, 0), statements };
    },
    async close() {
      await sql.end();
    },
  };
}
