const HOUR_MS = 3_600_000;

/** The start of the UTC hour an instant falls in, the rollups' unit. */
export function hourStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

export { HOUR_MS };
