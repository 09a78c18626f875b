/**
 * A moment at which a list just created is due. Its first run is due at the database's now(), kept
 * in microseconds; a Date counts whole milliseconds, so a `new Date()` taken right after the
 * creation can fall before it (a tick that started nothing, once in CI). Its due time read back,
 * plus a millisecond, never does.
 */
export function whenDue(list: { nextRunAt: Date }): Date {
  return new Date(list.nextRunAt.getTime() + 1);
}
