// The books as an accountant closes them: every quetzal received by the payment provider is
// credited, every credited top-up has its FEL invoice or a stated reason for none, every invoice is
// its top-up's amount, and every refund has its credit note. Read-only, like the rest of the
// reconciliation (lib/core/billing/verify.ts runs these as its last step, daily, from the CLI and
// the console's «Verificar ahora»); `books:verify` prints them with each month's figures.
import { sql, type SQL } from 'drizzle-orm';
import type { DatabaseHandle } from '@/db/client';

export type BooksFindingKind = 'payment_not_credited' | 'credit_without_invoice' | 'invoice_amount_differs' | 'sale_invoiced_twice' | 'refund_without_credit_note';

export interface BooksFinding {
  integrationId: number;
  kind: BooksFindingKind;
  count: number;
  /** Ids to start from: online payments (recarga-…), ledger entries, invoices or refunds, by kind. */
  sample: unknown;
}

type Rows = Array<{ integration_id: number; n: string | number; sample: unknown }>;

function scoped(column: SQL, integrationId: number | undefined): SQL {
  return integrationId === undefined ? sql`true` : sql`${column} = ${integrationId}::integer`;
}

/** What does not add up, per integration (nothing when the books close); its kind is its code (worded in lib/presentation/ledger-differences.ts). */
export async function booksFindings(handle: Pick<DatabaseHandle, 'rows'>, integrationId?: number): Promise<BooksFinding[]> {
  const findings: BooksFinding[] = [];
  const collect = (rows: Rows, kind: BooksFindingKind) => {
    for (const row of rows) if (Number(row.n) > 0) findings.push({ integrationId: Number(row.integration_id), kind, count: Number(row.n), sample: row.sample });
  };
  // A payment the provider took that is not in the balance: one of another amount or currency left
  // for a person (until settled), or one marked credited without its ledger entry.
  collect(
    await handle.rows(sql`
      select p.integration_id, count(*) as n, (array_agg(p.id order by p.created_at))[1:5] as sample
        from online_payments p
       where ((p.state = 'indeterminate' and p.detail = 'amount_mismatch') or (p.state = 'credited' and p.ledger_entry_id is null))
         and ${scoped(sql`p.integration_id`, integrationId)}
       group by 1`),
    'payment_not_credited',
  );
  collect(
    await handle.rows(sql`
      select e.integration_id, count(*) as n, (array_agg(e.id order by e.id))[1:5] as sample
        from ledger_entries e
       where e.kind = 'top_up' and e.no_invoice_reason is null and ${scoped(sql`e.integration_id`, integrationId)}
         and not exists (select 1 from invoices i where i.ledger_entry_id = e.id)
       group by 1`),
    'credit_without_invoice',
  );
  collect(
    await handle.rows(sql`
      select i.integration_id, count(*) as n, (array_agg(i.id order by i.id))[1:5] as sample
        from invoices i join ledger_entries e on e.id = i.ledger_entry_id
       where (e.kind <> 'top_up' or e.amount_centavos <> i.total_centavos or e.integration_id <> i.integration_id)
         and ${scoped(sql`i.integration_id`, integrationId)}
       group by 1`),
    'invoice_amount_differs',
  );
  // A sale stands invoiced once: an invoice replaced after a correction of its receptor (voided or
  // credited back without moving the balance) no longer counts, nor one voided or credited back.
  collect(
    await handle.rows(sql`
      select s.integration_id, count(*) as n, (array_agg(s.ledger_entry_id order by s.ledger_entry_id))[1:5] as sample
        from (select i.integration_id, i.ledger_entry_id
                from invoices i
               where (i.reversal is null or i.reversal in ('void_pending', 'credit_note_pending', 'correction_pending'))
                 and ${scoped(sql`i.integration_id`, integrationId)}
               group by 1, 2 having count(*) > 1) s
       group by 1`),
    'sale_invoiced_twice',
  );
  collect(
    await handle.rows(sql`
      select r.integration_id, count(*) as n, (array_agg(r.id order by r.id))[1:5] as sample
        from online_payment_refunds r
       where r.state = 'done' and r.invoice_reversal_id is null and ${scoped(sql`r.integration_id`, integrationId)}
       group by 1`),
    'refund_without_credit_note',
  );
  return findings;
}

/** One integration's month as the books read it (Guatemala's calendar), in centavos. */
export interface BooksMonth {
  integrationId: number;
  integrationName: string;
  /** YYYY-MM. */
  month: string;
  topUpsCentavos: number;
  /** Of those, credited while the service did not invoice. */
  notInvoicedCentavos: number;
  invoicedCentavos: number;
  /** Certified, and waiting (in the certifier's queue, for the NIT, or to correct). */
  certifiedCentavos: number;
  pending: { queued: number; awaitingReceptor: number; toCorrect: number };
  voidedCentavos: number;
  creditedBackCentavos: number;
}

/**
 * Each integration's months with top-ups: what was credited, what was invoiced, what waits and why,
 * what was voided or credited back. Top-ups = invoiced + not invoiced (invoicing off) when the books close.
 */
export async function booksByMonth(handle: Pick<DatabaseHandle, 'rows'>, options: { integrationId?: number; month?: string } = {}): Promise<BooksMonth[]> {
  const monthOf = (column: SQL) => sql`to_char(${column} at time zone 'America/Guatemala', 'YYYY-MM')`;
  const monthFilter = (column: SQL) => (options.month === undefined ? sql`true` : sql`${monthOf(column)} = ${options.month}`);
  const rows = await handle.rows<{
    integration_id: number;
    nombre: string;
    month: string;
    top_ups: string;
    not_invoiced: string;
    invoiced: string;
    certified: string;
    queued: string;
    awaiting: string;
    to_correct: string;
    voided: string;
    credited_back: string;
  }>(sql`
    select e.integration_id, g.nombre, ${monthOf(sql`e.created_at`)} as month,
           sum(e.amount_centavos) as top_ups,
           coalesce(sum(e.amount_centavos) filter (where e.no_invoice_reason is not null), 0) as not_invoiced,
           coalesce(sum(i.total_centavos), 0) as invoiced,
           coalesce(sum(i.total_centavos) filter (where i.state = 'certified'), 0) as certified,
           count(i.id) filter (where i.state in ('pending', 'indeterminate')) as queued,
           count(i.id) filter (where i.state = 'awaiting_receptor') as awaiting,
           count(i.id) filter (where i.state = 'to_correct') as to_correct,
           coalesce(sum(v.voided), 0) as voided,
           coalesce(sum(v.credited_back), 0) as credited_back
      from ledger_entries e
      join integrations g on g.id = e.integration_id
      -- The sale's current invoice: the last, which replaced any whose receptor was corrected (those
      -- moved no money, so they are not counted as voided or credited back either).
      left join lateral (select * from invoices i where i.ledger_entry_id = e.id order by i.id desc limit 1) i on true
      left join (select r.invoice_id,
                        sum(r.amount_centavos) filter (where r.kind = 'void') as voided,
                        sum(r.amount_centavos) filter (where r.kind = 'credit_note') as credited_back
                   from invoice_reversals r where r.state = 'done' and r.correction_receptor_kind is null group by r.invoice_id) v on v.invoice_id = i.id
     where e.kind = 'top_up' and ${scoped(sql`e.integration_id`, options.integrationId)} and ${monthFilter(sql`e.created_at`)}
     group by 1, 2, 3
     order by 3, 2`);
  return rows.map((row) => ({
    integrationId: Number(row.integration_id),
    integrationName: row.nombre,
    month: row.month,
    topUpsCentavos: Number(row.top_ups),
    notInvoicedCentavos: Number(row.not_invoiced),
    invoicedCentavos: Number(row.invoiced),
    certifiedCentavos: Number(row.certified),
    pending: { queued: Number(row.queued), awaitingReceptor: Number(row.awaiting), toCorrect: Number(row.to_correct) },
    voidedCentavos: Number(row.voided),
    creditedBackCentavos: Number(row.credited_back),
  }));
}
