// Shared by the CLI test files: runs the operator CLI as operators run it (its own process,
// --json) against the test file's database, and reads what it wrote.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { db } from '@/db/client';
import { decisionOfSettings, publishInvoicingDecision } from '@/lib/core/invoices/decision';
import { resolveDeferredSales } from '@/lib/core/invoices/sales';
import type { Settings as Env } from '@/lib/root/settings';
import { runCli, type CliResult } from '../support/cli';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

export interface IntegrationJson {
  id: number;
  nombre: string;
  tokenPrefix: string;
  tariffCentavos: number;
  balanceCentavos: number;
  isRenapEnabled: boolean;
  isRtuEnabled: boolean;
  isCuiNitEnabled: boolean;
  isRtuV2Enabled: boolean;
  isOmisosEnabled: boolean;
  token?: string;
  ledger?: Array<{ kind: string; amountCentavos: number; note: string | null; actor: string }>;
}

export type AuditRow = {
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
};

export interface CliFixture {
  testDb(): TestDatabase;
  cli(...args: string[]): Promise<CliResult>;
  /** The same, with `input` piped to the CLI's standard input. */
  cliWithInput(input: string, ...args: string[]): Promise<CliResult>;
  /** Runs a command that must succeed and returns its --json output. */
  cliJson<T>(...args: string[]): Promise<T>;
  /** A fresh integration for one test, so tests do not depend on each other's order. */
  createIntegration(...options: string[]): Promise<IntegrationJson>;
  auditRows(targetType: string, targetId: number): Promise<AuditRow[]>;
  storedTokenHash(integrationId: number): Promise<string>;
}

/**
 * Publishes whether the service invoices, and applies it to top-ups credited before, as an app
 * instance with these settings does when it starts (lib/root/startup.ts).
 */
export async function publishServiceDecision(settings: Pick<Env, 'FEL_ENABLED'> & Partial<Pick<Env, 'FEL_ISSUER_AFFILIATION'>>): Promise<void> {
  const full = { FEL_ISSUER_AFFILIATION: undefined, ...settings };
  await publishInvoicingDecision(await db(), full, 'the test, standing in for an app instance');
  await resolveDeferredSales(await db(), decisionOfSettings(full));
}

/** Call at the top of a test file: a fresh database for the file, and helpers around the CLI. */
export function cliFixture(namePrefix: string): CliFixture {
  let testDb: TestDatabase | undefined;
  beforeAll(async () => {
    testDb = await useTestDatabase();
    // What an app instance's start publishes (here: no invoicing): the CLI credits only once the
    // service said whether it invoices (lib/core/invoices/decision.ts).
    await testDb.use(() => publishServiceDecision({ FEL_ENABLED: false }));
  });
  afterAll(async () => {
    await testDb?.cleanup();
  });

  const database = () => {
    if (!testDb) throw new Error('the test database is not ready (use the fixture from tests, not at import time)');
    return testDb;
  };
  const cli = (...args: string[]) => runCli(args, database().env);
  const cliJson = async <T>(...args: string[]): Promise<T> => {
    const result = await cli(...args, '--json');
    if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    return result.json<T>();
  };
  let created = 0;
  return {
    testDb: database,
    cli,
    cliWithInput: (input, ...args) => runCli(args, database().env, {}, input),
    cliJson,
    createIntegration: (...options) => cliJson<IntegrationJson>('integrations:create', `${namePrefix}-${++created}`, ...options),
    auditRows: (targetType, targetId) =>
      database().use((handle) =>
        handle.rows<AuditRow>(
          sql`select actor, action, target_type, target_id, before, after from audit_log
              where target_type = ${targetType} and target_id = ${String(targetId)} order by id`,
        ),
      ),
    storedTokenHash: async (integrationId) => {
      const [row] = await database().use((handle) =>
        handle.rows<{ token_hash: string }>(
          sql`select token_hash from integration_tokens where integration_id = ${integrationId} and revoked_at is null and replaced_by_id is null order by id desc limit 1`,
        ),
      );
      return row!.token_hash;
    },
  };
}
