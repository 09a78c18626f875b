import { and, between, eq, gte, lt, not, type AnyColumn, type SQL } from 'drizzle-orm';

/** The classes the dashboard and the filters group a recorded query's status into. */
export const OUTCOMES = ['success', 'client_error', 'source_error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export function outcomeOf(httpStatus: number): Outcome {
  if (httpStatus >= 200 && httpStatus < 300) return 'success';
  return httpStatus >= 500 ? 'source_error' : 'client_error';
}

/** The condition "this status column is in that class", for records and rollups alike. */
export function outcomeCondition(status: AnyColumn, outcome: Outcome): SQL {
  switch (outcome) {
    case 'success':
      return between(status, 200, 299);
    case 'client_error':
      return and(not(between(status, 200, 299)), lt(status, 500))!;
    case 'source_error':
      return gte(status, 500);
  }
}

/** The "estado" filter on a status column: an outcome class, or one exact status ("502"). */
export function statusFilter(status: AnyColumn, estado: string): SQL {
  return (OUTCOMES as readonly string[]).includes(estado) ? outcomeCondition(status, estado as Outcome) : eq(status, Number(estado));
}
