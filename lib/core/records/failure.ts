import type { SourceFault } from '@/lib/sources/faults';

/**
 * Why a recorded query failed, as data (query_records.failure): a source's fault, or one of the
 * gateway's own. The record's `error_message` keeps the English detail for engineers.
 */
export type RecordFailure =
  | SourceFault
  /** The gateway itself failed while handling the query (the integrator got 500). */
  | { kind: 'unhandled' }
  /**
   * The source answered but the database did not take the settlement: the integrator got 500,
   * nothing was charged and the record was written later from the journal (lib/core/record-journal).
   */
  | { kind: 'settlement_not_written' }
  /**
   * The instance handling the query ended (killed, crashed) after reserving the balance and before
   * it could record an answer: whether the source answered is unknown, the integrator got no
   * answer from this service, and nothing was charged. Written by the hold sweeper from what the
   * hold kept for it.
   */
  | { kind: 'outcome_unknown' };

/** A failure as the database keeps it (jsonb), or null. */
export function storedFailure(failure: RecordFailure | null | undefined): string | null {
  return failure ? JSON.stringify(failure) : null;
}

/**
 * The failure of a record written before failures were kept (migration 0016), read from its
 * English detail: the texts lib/sources and lib/flows/lookups wrote then, fixed phrases of our own code
 * (never the upstream's words, which follow them). Undefined when the text is none of them: the
 * console then explains the record by its status alone.
 */
export function failureFromLegacyDetail(detail: string): RecordFailure | undefined {
  if (detail.startsWith('database unavailable at settlement')) return { kind: 'settlement_not_written' };
  if (detail.startsWith('unhandled:')) return { kind: 'unhandled' };
  if (/breaker open: not sent|bulkhead full: not sent/.test(detail)) return { kind: 'not_sent' };
  if (/^catalog source marked the query failed/.test(detail)) return { kind: 'marked_failed' };
  const answered = /^(?:catalog source|person registry|RTU registry) answered HTTP (\d{3})(.*)$/s.exec(detail);
  if (answered) {
    const status = Number(answered[1]);
    const rest = answered[2]!;
    // "(not a success)": the RTU registry's error status; "without SIN_RESULTADOS": a bare 404.
    if (/^ \(not a success\)| without SIN_RESULTADOS|^:/.test(rest)) return { kind: 'status', status };
    return { kind: 'unreadable', status };
  }
  const registryStatus = /^registry answered (\d{3})$/.exec(detail);
  if (registryStatus) return { kind: 'status', status: Number(registryStatus[1]) };
  const timedOut = /no answer within (\d+) ms/.exec(detail);
  if (timedOut) return { kind: 'timeout', afterMs: Number(timedOut[1]) };
  if (/answer larger than \d+ bytes/.test(detail)) return { kind: 'too_large' };
  if (/no answer: invalid upstream URL/.test(detail)) return { kind: 'misconfigured' };
  const noAnswer = /no answer: (?:([A-Z][A-Z0-9_]{1,40}) \(|the upstream closed)/.exec(detail);
  if (noAnswer) return noAnswer[1] ? { kind: 'no_answer', code: noAnswer[1] } : { kind: 'no_answer' };
  if (/no answer: /.test(detail)) return { kind: 'no_answer' };
  return undefined;
}
