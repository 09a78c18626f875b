// How the console words a bulk job and its rows (states, reasons) and how long a pause's reason may
// be. Client components read this: no server imports.
export { itemReasonLabel, itemStatusLabel, JOB_STATE_LABELS, jobHasEnded, PAUSE_REASON_MAX_LENGTH } from '@/lib/flows/bulk/labels';
