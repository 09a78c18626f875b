// The log context of work the process does on its own (periodic jobs, timers, background
// reloads): the job's name, and never the id of whichever request happened to start it. Timers
// and promises carry the async context they were created in, so a job first scheduled while a
// request ran would otherwise log that request's id on every run, for as long as the process lives.
import { runWithRequestContext } from '@/lib/platform/http/request-context';

/** Runs `fn` (and everything it schedules) as the background job `name`, outside any request. */
export function runAsJob<T>(name: string, fn: () => T): T {
  return runWithRequestContext({ logBindings: { job: name } }, fn);
}
