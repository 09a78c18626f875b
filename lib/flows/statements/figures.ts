import { sql, type SQL } from 'drizzle-orm';
import { database } from '@/db/client';
import type { LookupKind } from '@/db/schema';
import { CHECKPOINT_SETTLE_MARGIN_MS, postedBalanceBefore } from '@/lib/core/billing/checkpoints';
import { guatemalanToday, startOfGuatemalanDay } from '@/lib/platform/time/guatemala-time';
import { outcomeOf, type Outcome } from '@/lib/core/records/outcomes';
import { retentionCutoff } from '@/lib/core/records/retention-cutoff';
import type { StatementIssuer } from './issuer';
import { readableLedgerNote } from '@/lib/flows/top-ups/notes';

/** A Guatemalan calendar month, YYYY-MM. */
export const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Everything a monthly statement says, computed once and stored (lib/flows/statements/statements.ts). */
export interface StatementFigures {
  /**
   * As the integration was when the statement was issued: purpose, what the integrator declared it
   * uses the lookups for; legalName and nit, who it is (null: not registered then). Older
   * statements lack purpose, and those issued before integrations had details lack legalName and nit.
   */
  integration: StatementIntegration;
  /** Who issued it (the settings when it was issued); statements issued before this was stored lack it. */
  issuer?: StatementIssuer;
  month: string;
  /** The month's first instant and the next month's, in Guatemala's time (ISO, UTC). */
  period: { from: string; until: string };
  openingBalanceCentavos: number;
  topUps: { count: number; totalCentavos: number };
  adjustments: { count: number; totalCentavos: number };
  /** Every top-up and adjustment of the month, oldest first. */
  movements: Array<{ at: string; kind: 'top_up' | 'adjustment'; amountCentavos: number; note: string | null; actor: string }>;
  /** Charged queries by catalog and tariff: a tariff change inside the month gives two lines. */
  charges: { count: number; totalCentavos: number; lines: Array<{ lookup: LookupKind; tariffCentavos: number; count: number; amountCentavos: number }> };
  /** Receipts charged (constancias de consulta), by tariff, from the ledger; statements issued before receipts had a tariff lack it. */
  constancias?: { count: number; totalCentavos: number; lines: Array<{ tariffCentavos: number; count: number; amountCentavos: number }> };
  closingBalanceCentavos: number;
  /** Every query of the month that reached a source, by lookup and outcome, charged or not. */
  queries: Array<{ lookup: LookupKind; outcome: Outcome; count: number }>;
}

/** The integration a statement is about, copied into it when issued (lib/flows/statements/statements.ts). */
export interface StatementIntegration {
  id: number;
  nombre: string;
  purpose?: string;
  legalName?: string | null;
  nit?: string | null;
  /** Its billing profile's fiscal address; statements issued before profiles had one lack it. */
  address?: string | null;
}

export type StatementProblem = 'month_not_closed' | 'records_purged' | 'does_not_reconcile' | 'not_found' | 'before_integration';

export class StatementError extends Error {
  constructor(
    readonly problem: StatementProblem,
    message: string,
  ) {
    super(message);
  }
}

export function monthPeriod(month: string): { from: Date; until: Date } {
  const match = MONTH_PATTERN.exec(month);
  if (!match) throw new StatementError('not_found', `«${month}» no es un mes (AAAA-MM).`);
  const [year, monthNumber] = [Number(match[1]), Number(match[2])];
  const next = monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, '0')}`;
  return { from: startOfGuatemalanDay(`${month}-01`), until: startOfGuatemalanDay(`${next}-01`) };
}

/** The figures of any span of days: a statement's month, or the days a preview covers. */
export type PeriodFigures = Omit<StatementFigures, 'month' | 'issuer'>;

/**
 * A month's figures, as its statement holds them. Refuses a month that has not ended (plus the
 * margin in which its last entries may still commit) and a month whose records were purged; the
 * figures themselves come from computePeriodFigures, as a preview's do.
 */
export async function computeStatementFigures(integration: StatementIntegration, month: string, now = new Date()): Promise<StatementFigures> {
  const period = monthPeriod(month);
  if (period.until.getTime() + CHECKPOINT_SETTLE_MARGIN_MS > now.getTime()) {
    throw new StatementError('month_not_closed', `El mes ${month} todavía no ha terminado: su estado de cuenta se puede emitir desde el día 1 del mes siguiente.`);
  }
  if (period.from < retentionCutoff(now)) {
    throw new StatementError('records_purged', `Los registros de ${month} ya se depuraron (retención de registros): ese estado de cuenta ya no se puede emitir.`);
  }
  return { ...(await computePeriodFigures(integration, period, month)), month };
}

/**
 * The period's charges by lookup and tariff, from its records. Its range on created_at lets the
 * planner read only the months' partitions the period touches (db/migrations/0066): a statement's
 * Guatemalan month and the first hours of the next UTC month.
 */
export function chargesByTariff(integrationId: number, period: { from: Date; until: Date }): SQL {
  return sql`
      select r.lookup, r.tariff_centavos, count(*) as charges, sum(r.charged_centavos) as amount
        from query_records r
       where r.integration_id = ${integrationId}::integer and r.charged_centavos > 0
         and r.created_at >= ${period.from.toISOString()}::timestamptz and r.created_at < ${period.until.toISOString()}::timestamptz
       group by r.lookup, r.tariff_centavos
       order by r.lookup, r.tariff_centavos`;
}

/**
 * The figures of the days from `period.from` until `period.until` (Guatemalan midnights) from the
 * ledger (balances, top-ups, adjustments, the money charged), the records (charges by catalog and
 * tariff) and the daily rollups (queries by outcome). Issuing a statement and previewing one both
 * call this, so they cannot disagree. Refuses figures that do not add up: the charges the records
 * show must be exactly the captures the ledger shows, and opening + movements must equal closing.
 * `label` names the period in those refusals ("2026-05", "del 1 al 15 de junio de 2026").
 */
export async function computePeriodFigures(integration: StatementIntegration, period: { from: Date; until: Date }, label: string): Promise<PeriodFigures> {
  const { from, until } = period;
  const handle = await database();
  const id = sql`${integration.id}::integer`;

  const [opening, closing, movementRows, capturedRows, chargeRows, queryRows, constanciaRows] = await Promise.all([
    postedBalanceBefore(integration.id, from, handle),
    postedBalanceBefore(integration.id, until, handle),
    handle.rows<{ at: string; kind: 'top_up' | 'adjustment'; posted_centavos: string | number; note: string | null; actor: string }>(sql`
      select to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, e.kind, e.posted_centavos, e.note, e.actor
        from ledger_entries e
       where e.integration_id = ${id} and e.kind in ('top_up', 'adjustment')
         and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${until.toISOString()}::timestamptz
       order by e.created_at, e.id`),
    handle.rows<{ captures: string | number; posted: string | number | null }>(sql`
      select count(*) as captures, sum(e.posted_centavos) as posted
        from ledger_entries e
       where e.integration_id = ${id} and e.kind = 'capture' and e.posted_centavos <> 0
         and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${until.toISOString()}::timestamptz`),
    handle.rows<{ lookup: LookupKind; tariff_centavos: string | number; charges: string | number; amount: string | number }>(chargesByTariff(integration.id, period)),
    // The rollups' days are Guatemalan calendar days: the period's first, and the one after its last.
    handle.rows<{ lookup: LookupKind; http_status: number; queries: string | number }>(sql`
      select d.lookup, d.http_status, sum(d.queries) as queries
        from query_daily_rollups_by_integration d
       where d.integration_id = ${id} and d.day >= ${guatemalanToday(from)}::date and d.day < ${guatemalanToday(until)}::date
       group by d.lookup, d.http_status`),
    handle.rows<{ tariff: string | number; receipts: string | number }>(sql`
      select -e.posted_centavos as tariff, count(*) as receipts
        from ledger_entries e
       where e.integration_id = ${id} and e.kind = 'constancia'
         and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${until.toISOString()}::timestamptz
       group by e.posted_centavos
       order by 1`),
  ]);

  // Each note as the integrator reads it in Movimientos (an online payment's without our ids or the
  // provider's), stored so: an issued statement then reads the same for good.
  const movements = movementRows.map((row) => ({ at: row.at, kind: row.kind, amountCentavos: Number(row.posted_centavos), note: row.note === null ? null : readableLedgerNote(row.note), actor: row.actor }));
  const sumOf = (kind: 'top_up' | 'adjustment') => movements.filter((movement) => movement.kind === kind).reduce((sum, movement) => sum + movement.amountCentavos, 0);
  const lines = chargeRows.map((row) => ({ lookup: row.lookup, tariffCentavos: Number(row.tariff_centavos), count: Number(row.charges), amountCentavos: Number(row.amount) }));
  const charges = {
    count: lines.reduce((sum, line) => sum + line.count, 0),
    totalCentavos: lines.reduce((sum, line) => sum + line.amountCentavos, 0),
    lines,
  };
  const figures: PeriodFigures = {
    integration,
    period: { from: from.toISOString(), until: until.toISOString() },
    openingBalanceCentavos: opening,
    topUps: { count: movements.filter((movement) => movement.kind === 'top_up').length, totalCentavos: sumOf('top_up') },
    adjustments: { count: movements.filter((movement) => movement.kind === 'adjustment').length, totalCentavos: sumOf('adjustment') },
    movements,
    charges,
    ...(constanciaRows.length > 0 ? { constancias: receiptCharges(constanciaRows) } : {}),
    closingBalanceCentavos: closing,
    queries: queriesByOutcome(queryRows),
  };

  const captured = capturedRows[0]!;
  const ledgerCharges = -Number(captured.posted ?? 0);
  if (Number(captured.captures) !== charges.count || ledgerCharges !== charges.totalCentavos) {
    throw new StatementError(
      'does_not_reconcile',
      `Los cobros de ${label} no cuadran: el libro mayor tiene ${Number(captured.captures)} cobros por ${ledgerCharges} centavos y los registros ${charges.count} por ${charges.totalCentavos}. Revise la conciliación antes de emitir.`,
    );
  }
  const receiptsCentavos = figures.constancias?.totalCentavos ?? 0;
  if (opening + figures.topUps.totalCentavos + figures.adjustments.totalCentavos - charges.totalCentavos - receiptsCentavos !== closing) {
    throw new StatementError('does_not_reconcile', `El saldo de ${label} no cuadra: el inicial más los movimientos no da el final. Revise la conciliación antes de emitir.`);
  }
  return figures;
}

function receiptCharges(rows: Array<{ tariff: string | number; receipts: string | number }>): NonNullable<StatementFigures['constancias']> {
  const lines = rows.map((row) => ({ tariffCentavos: Number(row.tariff), count: Number(row.receipts), amountCentavos: Number(row.tariff) * Number(row.receipts) }));
  return { count: lines.reduce((sum, line) => sum + line.count, 0), totalCentavos: lines.reduce((sum, line) => sum + line.amountCentavos, 0), lines };
}

function queriesByOutcome(rows: Array<{ lookup: LookupKind; http_status: number; queries: string | number }>): StatementFigures['queries'] {
  const totals = new Map<string, StatementFigures['queries'][number]>();
  for (const row of rows) {
    const outcome = outcomeOf(Number(row.http_status));
    const key = `${row.lookup}|${outcome}`;
    const entry = totals.get(key) ?? { lookup: row.lookup, outcome, count: 0 };
    entry.count += Number(row.queries);
    totals.set(key, entry);
  }
  return [...totals.values()].sort((a, b) => a.lookup.localeCompare(b.lookup) || a.outcome.localeCompare(b.outcome));
}
