import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { once, submissionKey } from './submissions';

const ok = (answer: { ok: boolean }) => answer.ok;

describe('a console submission runs once per key', () => {
  it('hands a double submit the first answer without running the change again', async () => {
    const key = randomUUID();
    let runs = 0;
    const act = async () => ({ ok: true, run: ++runs });
    const [first, second] = await Promise.all([once('7', key, ok, act), once('7', key, ok, act)]);
    const later = await once('7', key, ok, act);
    expect([first, second, later]).toEqual([{ ok: true, run: 1 }, { ok: true, run: 1 }, { ok: true, run: 1 }]);
    // Another user's key, or no key at all, is another submission.
    expect(await once('8', key, ok, act)).toEqual({ ok: true, run: 2 });
    expect(await once('7', undefined, ok, act)).toEqual({ ok: true, run: 3 });
  });

  it('forgets a refusal once answered, so a corrected resend runs', async () => {
    const key = randomUUID();
    let runs = 0;
    expect(await once('7', key, ok, async () => ({ ok: false, run: ++runs }))).toEqual({ ok: false, run: 1 });
    expect(await once('7', key, ok, async () => ({ ok: true, run: ++runs }))).toEqual({ ok: true, run: 2 });
  });

  it('takes only UUIDs as keys', () => {
    const key = randomUUID();
    expect(submissionKey({ envio: key })).toBe(key);
    expect(submissionKey({ envio: 'x'.repeat(36) })).toBeUndefined();
    expect(submissionKey({ envio: 12 })).toBeUndefined();
    expect(submissionKey(null)).toBeUndefined();
  });
});
