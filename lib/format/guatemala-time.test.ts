import { describe, expect, it } from 'vitest';
import { formatDateTime } from './guatemala-time';

// The old formatter (`hour12: false`) printed "24:00:32" on engines that follow the older ECMA-402
// text (Node.js 20: `node node_modules/vitest/vitest.mjs run` on it fails this file without the fix).
describe('formatDateTime', () => {
  it('shows the first hour of a Guatemalan day as 00, never 24 (issue 24, point 2)', () => {
    // 00:00:32 on 1 November in Guatemala (UTC-6) is 06:00:32 UTC.
    expect(formatDateTime(new Date('2026-11-01T06:00:32Z'))).toBe('01/11/2026, 00:00:32');
    expect(formatDateTime('2026-11-01T06:59:59Z')).toBe('01/11/2026, 00:59:59');
  });

  it('shows the rest of the day on a 24-hour clock', () => {
    expect(formatDateTime(new Date('2026-11-01T07:00:00Z'))).toBe('01/11/2026, 01:00:00');
    expect(formatDateTime(new Date('2026-11-21T20:05:09Z'))).toBe('21/11/2026, 14:05:09');
    expect(formatDateTime(new Date('2026-11-02T05:59:59Z'))).toBe('01/11/2026, 23:59:59');
  });
});
