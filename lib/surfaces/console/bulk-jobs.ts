// «Lotes»: every integration's bulk jobs, newest first, and one job with its rows in the order sent
// (identifiers masked for every role), who created it and from which file.
import { findConsoleJob, listConsoleJobItems, listConsoleJobs, type ConsoleJobFilters } from '@/lib/flows/bulk/console';
import { isPublicJobId } from '@/lib/flows/bulk/jobs';
import { readJobOrigin } from '@/lib/flows/bulk/origin';
import { sourceForIntegrator } from '@/lib/flows/bulk/results';

/** One page of jobs by integration and state; `older` leads to the next. */
export async function consoleJobsPage(filters: ConsoleJobFilters, after: string | undefined) {
  return listConsoleJobs(filters, after);
}

/** A job page's title: its public id, when the address holds one. */
export function jobPageTitle(id: string): string {
  return isPublicJobId(id) ? `Lote ${id}` : 'Lote';
}

/** The job, a page of its rows after `after` (each with its source as the integrator reads it) and its origin; undefined when there is no such job. */
export async function consoleJobView(id: string, after: number) {
  const [job, items, origin] = await Promise.all([findConsoleJob(id), listConsoleJobItems(id, after), isPublicJobId(id) ? readJobOrigin(id) : undefined]);
  if (!job || !items || !origin) return undefined;
  return { job, origin, items: { ...items, rows: items.rows.map((item) => ({ ...item, sourceLabel: sourceForIntegrator(item.source).fuente })) } };
}
