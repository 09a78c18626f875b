import { describe, expect, it } from 'vitest';
import { runWithRequestContext } from '@/lib/platform/http/request-context';
import { newLookupTrace, timeStage } from './lookup-trace';

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
