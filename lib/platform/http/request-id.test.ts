import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id';

describe('request ids', () => {
  it('are req_ and 20 hex digits, and never repeat across many blocks of random bytes', () => {
    const ids = Array.from({ length: 2_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
