// How the pages of "Lotes" and "Vigilancia" name a job's and a watch list's states, schedules and
// changes: the words lib/flows/bulk and lib/flows/watch-lists give them (the API and the console say
// the same), read by the portal's pages through here. Both modules import only types.
export { JOB_STATE_LABELS, JOB_STATE_TONES, jobHasEnded, jobStateLabel, jobStateReason } from '@/lib/flows/bulk/labels';
export { WATCH_CHANGE_KIND_LABELS, WATCH_SCHEDULE_LABELS, WATCH_STATE_LABELS, WATCH_STATE_TONES, watchedValueLabel } from '@/lib/flows/watch-lists/labels';
