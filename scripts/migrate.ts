// npm run db:migrate: applies drizzle-kit's migrations to the configured database.
import '@/lib/platform/settings/load-env-files';
import { closeDatabase, database } from '@/db/client';
import { applyMigrations } from '@/db/migrate';

const handle = await database();
await applyMigrations(handle);
console.log(`Migrations applied (${handle.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}).`);
await closeDatabase();
