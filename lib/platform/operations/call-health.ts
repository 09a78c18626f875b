// Whether an outside party answers, read from the outcomes of the last calls made to it (newest
// first): the FEL certifier's (invoice_attempts) and the payment provider's (payment_provider_calls)
// are told alike on Fuentes, the Panel and /estado.

/**
 * up: its last call was answered; degraded: its last one or two were not; down: three or more in
 * a row were not; credentials_refused: it refuses the service's credentials; idle: no call yet.
 */
export type CallHealthState = 'up' | 'degraded' | 'down' | 'credentials_refused' | 'idle';

export interface CallHealth {
  state: CallHealthState;
  /** Since when it is in that state (the first call of the run that put it there); null when up or idle. */
  since: Date | null;
  lastCallAt: Date | null;
}

/** Not answered calls in a row from which it is down rather than degraded. */
export const DOWN_AFTER_CALLS = 3;

export function callHealth(calls: ReadonlyArray<{ outcome: string; at: Date }>, notAnswered: ReadonlySet<string>, credentialsRefused = 'credentials_refused'): CallHealth {
  const latest = calls[0];
  if (!latest) return { state: 'idle', since: null, lastCallAt: null };
  const runOf = (belongs: (outcome: string) => boolean) => {
    let length = 0;
    while (length < calls.length && belongs(calls[length]!.outcome)) length++;
    return { length, since: calls[length - 1]?.at ?? null };
  };
  if (latest.outcome === credentialsRefused) {
    return { state: 'credentials_refused', since: runOf((outcome) => outcome === credentialsRefused).since, lastCallAt: latest.at };
  }
  if (notAnswered.has(latest.outcome)) {
    const run = runOf((outcome) => notAnswered.has(outcome));
    return { state: run.length >= DOWN_AFTER_CALLS ? 'down' : 'degraded', since: run.since, lastCallAt: latest.at };
  }
  return { state: 'up', since: null, lastCallAt: latest.at };
}
