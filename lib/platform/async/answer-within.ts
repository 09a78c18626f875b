// Deadlines that a busy event loop does not trip by itself.
/**
 * `promise`, or a rejection when it has not settled `ms` after the call. The deadline looks once
 * more after the event loop's next poll: when a burst keeps the loop busy past `ms`, the timer and
 * the reply are both due at once, and timers run first; a reply that is already in the socket
 * is then still taken, so a busy instance does not mistake its own backlog for an outage of what it
 * waits for (Redis, whose fallback counters would let a burst through twice; the database, whose
 * credentials copy would age).
 */
export function answerWithin<T>(promise: Promise<T>, ms: number, what = 'no answer'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      immediate = setImmediate(() => reject(new Error(`${what} within ${ms} ms`)));
    }, ms);
  });
  return Promise.race([promise, deadline]).finally(() => {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  });
}
