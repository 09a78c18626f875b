import { sql, type SQL } from 'drizzle-orm';

// Who moved money, as people read it. Ledger entries store the actor as the code knows it
// ("user:3 ana@example.com", "cli:ops", "system:lookup"); the balance history, its CSV and the
// statements say "ana@example.com", "CLI (ops)", "Consulta a la API". One table for both the
// page (TypeScript) and the CSV (SQL, built from the same table), so they cannot disagree.

const SYSTEM_ACTOR_LABELS: Record<string, string> = {
  lookup: 'Consulta a la API',
  sweeper: 'Liberación automática de reservas',
  seed: 'Datos de desarrollo',
  statements: 'Estados de cuenta',
};

export function describeLedgerActor(actor: string): string {
  const user = /^user:\d+ (.+)$/.exec(actor);
  if (user) return user[1]!;
  if (actor === 'cli') return 'CLI';
  if (actor.startsWith('cli:')) return `CLI (${actor.slice(4)})`;
  if (actor === 'system') return 'Sistema';
  if (actor.startsWith('system:')) return SYSTEM_ACTOR_LABELS[actor.slice(7)] ?? `Sistema (${actor.slice(7)})`;
  return actor;
}

/** describeLedgerActor in SQL, for exports written by the database. */
export function ledgerActorSql(column: SQL): SQL {
  const systems = Object.entries(SYSTEM_ACTOR_LABELS).map(([name, label]) => sql`when ${`system:${name}`}::text then ${label}::text`);
  return sql.join(
    [
      sql`case`,
      sql`when ${column} ~ '^user:[0-9]+ .' then regexp_replace(${column}, '^user:[0-9]+ ', '')`,
      sql`when ${column} = 'cli' then 'CLI'`,
      sql`when ${column} like 'cli:%' then 'CLI (' || substr(${column}, 5) || ')'`,
      sql`when ${column} = 'system' then 'Sistema'`,
      sql`else case ${column}`,
      ...systems,
      sql`else case when ${column} like 'system:%' then 'Sistema (' || substr(${column}, 8) || ')' else ${column} end end end`,
    ],
    sql` `,
  );
}
