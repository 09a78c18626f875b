import { afterEach, describe, expect, it, vi } from 'vitest';
import { runWithRequestContext } from '@/lib/platform/http/request-context';
import { newLookupTrace, timeStage, timeStageAround } from './lookup-trace';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('timeStage', () => {
  it('adds each stage\'s time to the running lookup\'s trace, whether the stage succeeds or fails, before the caller goes on', async () => {
    const trace = newLookupTrace();
    await runWithRequestContext({ logBindings: {}, lookupTrace: trace }, async () => {
      expect(await timeStage('source', async () => (await pause(20), 'answer'))).toBe('answer');
      expect(trace.stagesMs.source).toBeGreaterThanOrEqual(15);
      await expect(timeStage('settle', async () => (await pause(20), Promise.reject(new Error('settlement failed'))))).rejects.toThrow('settlement failed');
      expect(trace.stagesMs.settle).toBeGreaterThanOrEqual(15);
    });
  });

  it('just runs the stage outside a lookup', async () => {
    expect(await timeStage('auth', async () => 'no trace')).toBe('no trace');
  });
});

describe('timeStageAround', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('adds only the stage\'s own time, not the time of the stages it hands the lookup to', async () => {
    // The clock moves only when the test says: 20 ms before, 60 ms behind, 20 ms after.
    let clock = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const trace = newLookupTrace();
    await runWithRequestContext({ logBindings: {}, lookupTrace: trace }, async () => {
      const answer = await timeStageAround('hold', async (inner) => {
        clock += 20;
        const behind = await inner(() =>
          timeStage('source', async () => {
            clock += 60;
            return 'answer';
          }),
        );
        clock += 20;
        return behind;
      });
      expect(answer).toBe('answer');
      expect(trace.stagesMs).toEqual({ source: 60, hold: 40 });
    });
  });

  it('just runs the stage outside a lookup', async () => {
    expect(await timeStageAround('hold', (inner) => inner(async () => 'no trace'))).toBe('no trace');
  });
});
