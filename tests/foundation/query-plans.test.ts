// Every list the console pages through must be answered in index order: an index whose columns,
// direction and NULLS placement match the query's ORDER BY, so a page reads ~50 index entries
// whatever the table's size. On a test-sized table the planner would happily sort instead, so
// sorting and sequential scans are priced out (enable_sort, enable_seqscan off): if a Sort node
// still appears, no index can give that order (the DESC NULLS LAST defect), and the page would
// sort the whole range at 10 million records. `npm run bench:console` shows the same plans at volume.
import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { historyQuery } from '@/lib/core/billing/history';
import { auditPageQuery } from '@/lib/surfaces/console/audit';
import { accessPageQuery } from '@/lib/core/personal-data/access-log';
import type { RecordFilters } from '@/lib/core/records/filters';
import { recordsQuery } from '@/lib/core/records/list';
import { untoldInvoicesQuery } from '@/lib/flows/invoicing/queue';
import { decidedTopUpsQuery } from '@/lib/flows/top-ups/requests';
import { invoicesQuery } from '@/lib/surfaces/console/invoices';
import { useTestDatabase, type TestDatabase } from '../support/test-database';

let testDatabase: TestDatabase;
// In the current month: a new database holds query records' partitions from its own month on
// (lib/core/records/partitions.ts), and a range of an earlier month plans as a sort of nothing.
const THIS_MONTH = new Date().toISOString().slice(0, 7);
const CURSOR = { createdAt: `${THIS_MONTH}-20T12:00:00.123456Z`, id: 1_000 };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** The plan of a query as the console runs it, with sorting and sequential scans priced out. */
async function planOf(query: SQLWrapper): Promise<PlanNode[]> {
  // SET LOCAL inside one transaction: with a pool, a plain SET could land on another connection.
  const document = await (await db()).transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`);
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = (await tx.execute(sql`explain (format json) ${query}`)) as unknown;
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
    return Object.values(rows[0]!)[0];
  });
  const parsed = (typeof document === 'string' ? JSON.parse(document) : document) as Array<{ Plan: PlanNode }>;
  // A month's partition reads its own copy of an index (query_records_2026_11_created_at_id_idx):
  // it is named here by the partitioned table's index it belongs to.
  const parents = await (await db()).execute(sql`
    select c.relname as child, p.relname as parent
      from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
     where c.relkind = 'i'`);
  const parentOf = new Map(((Array.isArray(parents) ? parents : (parents as { rows: unknown[] }).rows) as Array<{ child: string; parent: string }>).map((row) => [row.child, row.parent]));
  return nodes(parsed[0]!.Plan).map((node) => (node['Index Name'] && parentOf.has(node['Index Name']) ? { ...node, 'Index Name': parentOf.get(node['Index Name']) } : node));
}

function expectIndexOrder(plan: PlanNode[], index: string | string[]): void {
  expect(plan.filter((node) => node['Node Type'].includes('Sort')).map((node) => node['Node Type'])).toEqual([]);
  const used = plan.map((node) => node['Index Name']).filter(Boolean);
  expect(used.some((name) => (Array.isArray(index) ? index : [index]).includes(name!)), `uses ${String(index)}, not only ${used.join(', ')}`).toBe(true);
}

const RECORD_LISTS: Array<[string, RecordFilters, string]> = [
  ['no filter', {}, 'query_records_created_idx'],
  ['one integration', { integracion: 3 }, 'query_records_integration_created_idx'],
  ['one lookup', { consulta: 'omisos' }, 'query_records_lookup_created_idx'],
  ['one status', { estado: '502' }, 'query_records_status_created_idx'],
  ['a date range', { desde: `${THIS_MONTH}-01`, hasta: `${THIS_MONTH}-07` }, 'query_records_created_idx'],
  ['a NIT or CUI', { identificador: '576937-k' }, 'query_record_identifiers_search_idx'],
  ['a NIT or CUI in one integration', { identificador: '576937-k', integracion: 3 }, 'query_record_identifiers_search_idx'],
];

describe('the console lists are read in index order', () => {
  for (const [name, filters, index] of RECORD_LISTS) {
    it(`query records, ${name}: first page, older pages and newer pages`, async () => {
      const database = await db();
      expectIndexOrder(await planOf(recordsQuery(database, filters, undefined, 'older', 51)), index);
      expectIndexOrder(await planOf(recordsQuery(database, filters, CURSOR, 'older', 51)), index);
      expectIndexOrder(await planOf(recordsQuery(database, filters, CURSOR, 'newer', 51)), index);
    });
  }

  it('an integration\'s balance history, all movements or one kind, both ways', async () => {
    for (const direction of ['older', 'newer'] as const) {
      expectIndexOrder(await planOf(historyQuery(3, {}, CURSOR, direction, 51)), 'ledger_entries_posted_idx');
      // Either index gives a kind's movements in order; at volume the planner takes the kind index
      // for rare kinds (bench:console shows it).
      expectIndexOrder(await planOf(historyQuery(3, { tipo: 'top_up' }, CURSOR, direction, 51)), ['ledger_entries_kind_idx', 'ledger_entries_posted_idx']);
    }
    expectIndexOrder(await planOf(historyQuery(3, { desde: '2026-11-01', hasta: '2026-11-07' }, undefined, 'older', 51)), 'ledger_entries_posted_idx');
  });

  it('the audit log, all of it, one target or one kind of change', async () => {
    const database = await db();
    expectIndexOrder(await planOf(auditPageQuery(database, {}, CURSOR, 51)), 'audit_log_created_idx');
    expectIndexOrder(await planOf(auditPageQuery(database, { targetType: 'integration', targetId: '3' }, CURSOR, 51)), 'audit_log_target_idx');
    // Failed sign-ins can outnumber every other row: a rare change is found through its own index.
    expectIndexOrder(await planOf(auditPageQuery(database, { action: 'integration.set_tariff' }, CURSOR, 51)), 'audit_log_action_idx');
    expectIndexOrder(await planOf(auditPageQuery(database, { action: 'user.sign_in_failed', since: '2026-11-01' }, undefined, 51)), [
      'audit_log_action_idx',
      'audit_log_created_idx',
    ]);
  });

  it('the decided top-up requests under "Recargas pendientes", first page and earlier ones', async () => {
    const database = await db();
    expectIndexOrder(await planOf(decidedTopUpsQuery(database, undefined, 51)), 'top_up_requests_decided_idx');
    expectIndexOrder(await planOf(decidedTopUpsQuery(database, CURSOR, 51)), 'top_up_requests_decided_idx');
  });

  it('the invoices under "Facturas", all of them, one state or standing, one month, first page and older ones', async () => {
    const database = await db();
    for (const cursor of [undefined, CURSOR]) {
      expectIndexOrder(await planOf(invoicesQuery(database, {}, cursor, 51)), 'invoices_created_idx');
      expectIndexOrder(await planOf(invoicesQuery(database, { state: 'to_correct' }, cursor, 51)), 'invoices_state_created_idx');
      expectIndexOrder(await planOf(invoicesQuery(database, { month: '2026-11' }, cursor, 51)), 'invoices_created_idx');
      expectIndexOrder(await planOf(invoicesQuery(database, { state: 'certified', month: '2026-11' }, cursor, 51)), 'invoices_state_created_idx');
      // A void or a credit note, under way or done: the invoices' own standing, in its index.
      for (const state of ['void_pending', 'voided', 'credit_note_pending', 'credited'] as const) {
        expectIndexOrder(await planOf(invoicesQuery(database, { state }, cursor, 51)), 'invoices_reversal_created_idx');
        expectIndexOrder(await planOf(invoicesQuery(database, { state, month: '2026-11' }, cursor, 51)), 'invoices_reversal_created_idx');
      }
    }
  });

  it('the personal-data access log, all of it, one user or one record (issue 23)', async () => {
    const database = await db();
    expectIndexOrder(await planOf(accessPageQuery(database, {}, CURSOR, 51)), 'personal_data_access_created_idx');
    expectIndexOrder(await planOf(accessPageQuery(database, { userId: 4 }, CURSOR, 51)), 'personal_data_access_user_idx');
    expectIndexOrder(await planOf(accessPageQuery(database, { recordId: 1_042, kind: 'reveal' }, undefined, 51)), 'personal_data_access_record_idx');
    expectIndexOrder(await planOf(accessPageQuery(database, { since: '2026-11-01', until: '2026-11-07' }, undefined, 51)), 'personal_data_access_created_idx');
  });
});

describe("the invoice worker's look at every round", () => {
  it('for certified invoices left untold reads only its partial index, oldest first', async () => {
    // Every instance looks every few seconds and almost always finds none: a scan of the invoices
    // (every certified one, for years) would be paid each time.
    expectIndexOrder(await planOf(untoldInvoicesQuery(60, 20)), 'invoices_untold_idx');
  });
});

describe('a purge of bulk jobs finds what points at each deleted job by index', () => {
  it("a retried job's retries, whose link its foreign key clears (ON DELETE SET NULL)", async () => {
    // The statement PostgreSQL's referential action runs once per deleted job (ri_triggers.c).
    const plan = await planOf(sql`update only bulk_jobs set retry_of = null where ${1}::integer operator(pg_catalog.=) retry_of`);
    expect(plan.map((node) => node['Index Name']).filter(Boolean)).toEqual(['bulk_jobs_retry_of_idx']);
  });
});
