import { and, desc, eq, sql } from 'drizzle-orm';
import { database, db } from '@/db/client';
import { integrations, monthlyStatements, type MonthlyStatement } from '@/db/schema';
import { describeActor, type Actor } from '@/lib/core/audit/audit';
import { guatemalanMonthOf } from '@/lib/platform/time/guatemala-time';
import { monthName } from '@/lib/platform/time/months';
import { fail, ok, type Result } from '@/lib/platform/result';
import { computeStatementFigures, StatementError, type StatementFigures, type StatementIntegration, type StatementProblem } from './figures';
import { statementIssued, type Statement } from './events';
import { configuredIssuer } from './issuer';

export type { Statement };

function toStatement(row: MonthlyStatement): Statement {
  return { ...row, figures: row.figures as StatementFigures };
}

/**
 * The integration's statement for a month: the stored one if it was issued already (a statement
 * never changes once issued: later corrections are adjustments, which fall in a later month), or
 * a new one, computed and stored now. Two instances issuing it at once store it once.
 */
export async function issueStatement(actor: Actor, integrationId: number, month: string, now = new Date()): Promise<Result<Statement, StatementProblem>> {
  const existing = await findStatement(integrationId, month);
  if (existing) return ok(existing);
  const found = await statementIntegration(integrationId);
  if (!found) return fail('not_found', `No existe la integración ${integrationId}.`);
  const { integration, createdAt } = found;
  // A month that ended before the integration existed would be an empty statement, kept forever.
  if (month < guatemalanMonthOf(createdAt)) {
    return fail('before_integration', `La integración ${integration.nombre} se creó en ${monthName(guatemalanMonthOf(createdAt))}: no hay estado de cuenta de ${monthName(month)}.`);
  }
  let figures: StatementFigures;
  try {
    // The legal name and NIT are copied into the statement, and so is its issuer: a later edit of
    // the integration's details or of the settings must not rewrite a statement already issued
    // (docs/decisions.md).
    figures = { ...(await computeStatementFigures(integration, month, now)), issuer: configuredIssuer() };
  } catch (error) {
    if (error instanceof StatementError) return fail(error.problem, error.message);
    throw error;
  }
  // The next number of this integration, taken in the insert itself; two statements of one
  // integration issued at the same instant collide on the number's unique index, and the loser
  // takes the next one (a second issue of the same month is simply the first one, found).
  for (let attempt = 0; ; attempt++) {
    try {
      await (await database()).rows(sql`
        insert into monthly_statements (integration_id, month, number, figures, created_by)
        select ${integrationId}::integer, ${month}::text, coalesce(max(number), 0) + 1, ${JSON.stringify(figures)}::jsonb, ${describeActor(actor)}::text
          from monthly_statements where integration_id = ${integrationId}::integer
        on conflict (integration_id, month) do nothing`);
      break;
    } catch (error) {
      if (attempt >= 5 || !isUniqueViolation(error)) throw error;
    }
  }
  const statement = (await findStatement(integrationId, month))!;
  // The billing contact gets it with its PDF (claimed once per statement: an instance that lost
  // the insert above to another finds the claim taken).
  await statementIssued.emit({ integration: { id: integration.id, nombre: integration.nombre }, statement, monthLabel: monthName(month) });
  return ok(statement);
}

/**
 * The integration as a statement (or a preview) names it, now: login, declared purpose, and its
 * billing profile (the razón social and NIT its invoices name, SAT's name for the NIT, and its
 * fiscal address); with its creation, before which no month has a statement.
 */
export async function statementIntegration(integrationId: number): Promise<{ integration: StatementIntegration; createdAt: Date } | undefined> {
  const [row] = await (await db())
    .select({
      id: integrations.id,
      nombre: integrations.nombre,
      purpose: integrations.purpose,
      legalName: integrations.legalName,
      nit: integrations.nit,
      address: integrations.billingAddress,
      createdAt: integrations.createdAt,
    })
    .from(integrations)
    .where(eq(integrations.id, integrationId));
  if (!row) return undefined;
  const { createdAt, ...integration } = row;
  return { integration, createdAt };
}

export async function findStatement(integrationId: number, month: string): Promise<Statement | undefined> {
  const [row] = await (await db())
    .select()
    .from(monthlyStatements)
    .where(and(eq(monthlyStatements.integrationId, integrationId), eq(monthlyStatements.month, month)));
  return row && toStatement(row);
}

/**
 * One integration's statement by its id: undefined both when no statement has that id and when it
 * is another integration's (the portal answers both alike).
 */
export async function findStatementOf(integrationId: number, statementId: number): Promise<Statement | undefined> {
  const [row] = await (await db())
    .select()
    .from(monthlyStatements)
    .where(and(eq(monthlyStatements.integrationId, integrationId), eq(monthlyStatements.id, statementId)));
  return row && toStatement(row);
}

/** The integration's issued statements, newest month first. */
export async function listStatements(integrationId: number): Promise<Statement[]> {
  const rows = await (await db())
    .select()
    .from(monthlyStatements)
    .where(eq(monthlyStatements.integrationId, integrationId))
    .orderBy(desc(monthlyStatements.month));
  return rows.map(toStatement);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}
