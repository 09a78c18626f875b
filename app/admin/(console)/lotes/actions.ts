'use server';

// The entry points of a bulk job's controls: lib/surfaces/console/bulk-job-actions.ts.
import * as bulkJobs from '@/lib/surfaces/console/bulk-job-actions';

export const revealJobItemAction = bulkJobs.revealJobItemAction;
export const pauseJobAction = bulkJobs.pauseJobAction;
export const resumeJobAction = bulkJobs.resumeJobAction;
export const cancelJobAction = bulkJobs.cancelJobAction;
