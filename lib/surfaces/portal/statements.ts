import { previewStatement, runningMonthRange, type PreviewProblem, type PreviewRange, type StatementPreview } from '@/lib/flows/statements/preview';
import { PREVIEW_MARK } from '@/lib/flows/statements/texts';
import { findStatementOf, listStatements, type Statement } from '@/lib/flows/statements/statements';
import type { Result } from '@/lib/platform/result';
import type { PortalUserSession } from './session';

// "Estados de cuenta": the session's integration's issued monthly statements (lib/flows/statements).
// A download names a statement by its id; the id is looked up within the session's integration
// only, so another integration's statement is answered exactly as one that does not exist.

export interface PortalStatementRow {
  id: number;
  number: number;
  month: string;
  closingBalanceCentavos: number;
  chargedCount: number;
  createdAt: Date;
}

export async function portalStatements(user: PortalUserSession): Promise<PortalStatementRow[]> {
  return (await listStatements(user.integrationId)).map((statement) => ({
    id: statement.id,
    number: statement.number,
    month: statement.month,
    closingBalanceCentavos: statement.figures.closingBalanceCentavos,
    chargedCount: statement.figures.charges.count,
    createdAt: statement.createdAt,
  }));
}

/** The session's integration's statement with this id (as the URL spelled it), or undefined. */
export async function portalStatement(user: PortalUserSession, idText: string): Promise<Statement | undefined> {
  if (!/^[1-9]\d{0,8}$/.test(idText)) return undefined;
  return findStatementOf(user.integrationId, Number(idText));
}

/**
 * What the session's integration's statement of the running month would say now (lib/flows/statements/
 * preview.ts, the console's preview): only the running month, the days a statement of it will cover
 * so far, never stored. Earlier months have their issued statement.
 */
export function portalStatementPreview(user: PortalUserSession, now = new Date()): Promise<Result<StatementPreview, PreviewProblem>> {
  return previewStatement(user.integrationId, runningMonthRange(now), now);
}

/** The days the running month's statement covers so far (its first to today, Guatemalan days): "Mes en curso". */
export function portalRunningMonth(now = new Date()): PreviewRange {
  return runningMonthRange(now);
}

/** What marks a preview as not an issued statement, on its page as on its PDF. */
export const STATEMENT_PREVIEW_MARK = PREVIEW_MARK;
