import { recordRetentionSettings } from './settings';
import { hourStart } from '@/lib/platform/time/hours';

/**
 * The oldest instant whose query records are kept: QUERY_RECORD_RETENTION_MONTHS calendar months
 * before now, at the start of that hour. Older records are purged by the retention job.
 */
export function retentionCutoff(now = new Date(), months = recordRetentionSettings().QUERY_RECORD_RETENTION_MONTHS): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return hourStart(cutoff);
}
