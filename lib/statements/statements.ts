import { and, desc, eq } from 'drizzle-orm';
import { db } from '@/db/client';
import { integrations, monthlyStatements, type MonthlyStatement } from '@/db/schema';
import { describeActor, type Actor } from '@/lib/audit/audit';
import { fail, ok, type Result } from '@/lib/result';
import { computeStatementFigures, StatementError, type StatementFigures, type StatementProblem } from './figures';

export interface Statement {
  id: number;
  integrationId: number;
  month: string;
  figures: StatementFigures;
  createdBy: string;
  createdAt: Date;
}

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
  const database = await db();
  const [integration] = await database.select({ id: integrations.id, nombre: integrations.nombre, purpose: integrations.purpose }).from(integrations).where(eq(integrations.id, integrationId));
  if (!integration) return fail('not_found', `No existe la integración ${integrationId}.`);
  let figures: StatementFigures;
  try {
    figures = await computeStatementFigures(integration, month, now);
  } catch (error) {
    if (error instanceof StatementError) return fail(error.problem, error.message);
    throw error;
  }
  await database
    .insert(monthlyStatements)
    .values({ integrationId, month, figures, createdBy: describeActor(actor) })
    .onConflictDoNothing();
  return ok((await findStatement(integrationId, month))!);
}

export async function findStatement(integrationId: number, month: string): Promise<Statement | undefined> {
  const [row] = await (await db())
    .select()
    .from(monthlyStatements)
    .where(and(eq(monthlyStatements.integrationId, integrationId), eq(monthlyStatements.month, month)));
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
