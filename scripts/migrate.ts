// npm run db:migrate: applies drizzle-kit's migrations to the configured database.
import '@/lib/platform/settings/load-env-files';
import { closeDatabase, database } from '@/db/client';
import { applyMigrations } from '@/db/migrate';
import { allSettings } from '@/lib/root/settings';

// Every capability's settings first, as the server's start checks them: a wrong one stops the
// migrations too, named, before the database is touched.
allSettings();
const handle = await database();
await applyMigrations(handle);
console.log(`Migrations applied (${handle.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}).`);
await closeDatabase();
