/**
 * The overlap windows offered when rotating a token: how long the old token keeps working beside
 * the new one, so an integrator can deploy the new token before the old one stops (Stripe's
 * "expire the old key in…", Unkey's grace window). None ends the old token at once.
 */
export const OVERLAP_PRESETS = {
  none: 0,
  '1h': 60 * 60 * 1000,
  '24h': 24 * 60 * 60 * 1000,
  '7d': 7 * 24 * 60 * 60 * 1000,
} as const;
export type OverlapPreset = keyof typeof OVERLAP_PRESETS;
export const OVERLAP_PRESET_NAMES = Object.keys(OVERLAP_PRESETS) as OverlapPreset[];

export function parseOverlapPreset(value: unknown): OverlapPreset | undefined {
  return typeof value === 'string' && (OVERLAP_PRESET_NAMES as string[]).includes(value) ? (value as OverlapPreset) : undefined;
}

/**
 * A token's state at an instant: active (no end, or its end is ahead and it was not replaced),
 * ending (replaced by rotation, working until its overlap window ends), expired, or revoked.
 */
export type TokenState = 'active' | 'ending' | 'expired' | 'revoked';

export interface TokenTimes {
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedById: number | null;
}

export function tokenState(token: TokenTimes, now: Date = new Date()): TokenState {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (token.replacedById !== null) return 'ending';
  return 'active';
}

/** Whether a token is accepted at `nowMs`: not revoked, and before its expiry if it has one. */
export function tokenUsableAt(token: { expiresAtMs: number | null }, nowMs: number): boolean {
  return token.expiresAtMs === null || nowMs < token.expiresAtMs;
}
