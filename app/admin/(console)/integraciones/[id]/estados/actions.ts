'use server';

// The entry point of issuing a statement: lib/surfaces/console/statement-actions.ts.
import * as statements from '@/lib/surfaces/console/statement-actions';

export const issueStatementAction = statements.issueStatementAction;
