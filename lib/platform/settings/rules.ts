import type { z } from 'zod';

// The rules most capabilities' settings share, worded alike wherever they apply.

/** Each of `names` that `settings` leaves unset is required when `when` holds (APP_ENV=production, say). */
export function requireSet<Settings>(settings: Settings, ctx: z.RefinementCtx, names: readonly (keyof Settings & string)[], when: string): void {
  for (const name of names) {
    if (settings[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: `is required when ${when}` });
  }
}

/** Production sends nothing in clear text: each of `names` that is set must be an https:// URL. */
export function requireHttps<Settings>(settings: Settings, ctx: z.RefinementCtx, names: readonly (keyof Settings & string)[]): void {
  for (const name of names) {
    const url = settings[name];
    if (typeof url === 'string' && url !== '' && !url.startsWith('https://')) ctx.addIssue({ code: 'custom', path: [name], message: 'must be an https:// URL when APP_ENV=production' });
  }
}

/** `name` is required once `other` is set: a channel configured by half would fail silently. */
export function requireAlongside<Settings>(settings: Settings, ctx: z.RefinementCtx, name: keyof Settings & string, other: keyof Settings & string): void {
  if (settings[other] !== undefined && settings[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: `is required when ${other} is set` });
}
