// Incidents from the breakers' transitions as every instance recorded them. Each instance has its
// own breaker per source; an incident is a span during which at least one instance had the
// source's breaker open: the union of the instances' open spans. An instance that stopped
// confirming its open breaker (it stopped or crashed while open) holds it open no longer than its
// last confirmation.
import type { BreakerTransition } from '@/db/schema';
import type { SourceName } from '@/lib/sources/guard';

export interface RecordedTransition {
  instance: string;
  source: SourceName;
  transition: BreakerTransition;
  at: Date;
  confirmedAt: Date;
}

export interface Incident {
  source: SourceName;
  startedAt: Date;
  /** null while it lasts ("en curso"). */
  endedAt: Date | null;
  /** Until its end, or until now while it lasts. */
  durationMs: number;
}

interface Span {
  start: number;
  /** Infinity while open. */
  end: number;
}

/** How long an instance's open breaker counts without a fresh confirmation (it confirms every CONFIRM_INTERVAL_MS). */
export const CONFIRM_INTERVAL_MS = 15_000;
export const STALE_AFTER_MS = 4 * CONFIRM_INTERVAL_MS;

/** One instance's open spans of one source, from its transitions in any order. */
function instanceSpans(transitions: readonly RecordedTransition[], now: number, staleAfterMs: number): Span[] {
  const ordered = [...transitions].sort((a, b) => a.at.getTime() - b.at.getTime());
  const spans: Span[] = [];
  let openedAt: number | null = null;
  let confirmedAt = 0;
  for (const transition of ordered) {
    if (transition.transition === 'opened') {
      if (openedAt === null) openedAt = transition.at.getTime();
      confirmedAt = Math.max(confirmedAt, transition.confirmedAt.getTime());
    } else if (openedAt !== null) {
      spans.push({ start: openedAt, end: transition.at.getTime() });
      openedAt = null;
      confirmedAt = 0;
    }
  }
  if (openedAt !== null) spans.push({ start: openedAt, end: now - confirmedAt > staleAfterMs ? Math.max(openedAt, confirmedAt) : Infinity });
  return spans;
}

/** The union of overlapping spans, oldest first. */
function union(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Every source's incidents, newest first. */
export function mergeIncidents(transitions: readonly RecordedTransition[], now: Date, staleAfterMs = STALE_AFTER_MS): Incident[] {
  const byInstanceAndSource = new Map<string, RecordedTransition[]>();
  for (const transition of transitions) {
    const key = JSON.stringify([transition.source, transition.instance]);
    const list = byInstanceAndSource.get(key) ?? [];
    list.push(transition);
    byInstanceAndSource.set(key, list);
  }
  const spansBySource = new Map<SourceName, Span[]>();
  for (const list of byInstanceAndSource.values()) {
    const source = list[0]!.source;
    spansBySource.set(source, [...(spansBySource.get(source) ?? []), ...instanceSpans(list, now.getTime(), staleAfterMs)]);
  }
  const incidents: Incident[] = [];
  for (const [source, spans] of spansBySource) {
    for (const span of union(spans)) {
      const ongoing = span.end === Infinity;
      incidents.push({
        source,
        startedAt: new Date(span.start),
        endedAt: ongoing ? null : new Date(span.end),
        durationMs: (ongoing ? now.getTime() : span.end) - span.start,
      });
    }
  }
  return incidents.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
}
