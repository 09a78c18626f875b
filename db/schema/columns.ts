import { timestamp } from 'drizzle-orm/pg-core';

// Shared column helpers. Times are timestamptz so PGlite and PostgreSQL agree on instants.
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
