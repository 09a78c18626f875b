import type { TimeStampAuthority, TimeStampOutcome } from '@/lib/providers/timestamping/authority';
import { keepHeadTimestamp, latestHead, latestTimestampedHead } from './log';
import { headDigest } from './read';

// Once a day the log's newest head is stamped by an RFC 3161 authority: the token dates every
// receipt in that head by a clock that is not ours (docs/constancias.md). Asking again after a
// failure is harmless: a second token over the same head is as good as the first.

export const TIMESTAMP_EVERY_MS = 24 * 3_600_000;

export type TimestampRun =
  | { kind: 'not_due'; lastAt: Date }
  | { kind: 'no_head' }
  | { kind: 'stamped'; treeSize: number; at: Date }
  | { kind: 'failed'; treeSize: number; outcome: Exclude<TimeStampOutcome, { kind: 'stamped' }> };

/** Stamps the newest head when the last stamp is a day old (or there is none) and the log has grown since. */
export async function timestampLatestHead(authority: TimeStampAuthority, now: Date = new Date()): Promise<TimestampRun> {
  const [head, stamped] = await Promise.all([latestHead(), latestTimestampedHead()]);
  if (!head) return { kind: 'no_head' };
  if (stamped?.timestampedAt && (now.getTime() - stamped.timestampedAt.getTime() < TIMESTAMP_EVERY_MS || stamped.treeSize === head.treeSize)) {
    return { kind: 'not_due', lastAt: stamped.timestampedAt };
  }
  const outcome = await authority.stamp(headDigest(head.signedHead));
  if (outcome.kind !== 'stamped') return { kind: 'failed', treeSize: head.treeSize, outcome };
  await keepHeadTimestamp(head.treeSize, outcome.reply, outcome.genTime);
  return { kind: 'stamped', treeSize: head.treeSize, at: outcome.genTime };
}
