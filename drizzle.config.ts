import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the schema only; they are applied by lib code (db/migrate.ts)
// on PGlite and on PostgreSQL alike, so drizzle-kit never needs a live database here.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  casing: 'snake_case',
});
