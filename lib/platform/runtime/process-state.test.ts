import { describe, expect, it } from 'vitest';
import { peekProcessSlot, processSlot, setProcessSlot } from './process-state';

describe("the process's state", () => {
  it('makes a piece once, under its name, for every caller', () => {
    let made = 0;
    const create = () => ({ made: ++made });
    const first = processSlot('jobs', create);
    expect(processSlot('jobs', create)).toBe(first);
    expect(made).toBe(1);
    expect(peekProcessSlot('jobs')).toBe(first);
  });

  it('is the same map from another copy of the module, as Next bundles one per route', async () => {
    // Another instance of the module, as another bundle would load it.
    const copy = (await import(`./process-state${'?copy'}`)) as typeof import('./process-state');
    expect(copy.peekProcessSlot).not.toBe(peekProcessSlot);
    setProcessSlot('lastPublicStatus', { generado_en: 'ahora' });
    expect(copy.peekProcessSlot('lastPublicStatus')).toEqual({ generado_en: 'ahora' });
  });

  it('forgets a piece taken away, and makes it again when asked', () => {
    const first = processSlot('refusalCounts', () => ({ counts: new Map() }));
    setProcessSlot('refusalCounts', undefined);
    expect(peekProcessSlot('refusalCounts')).toBeUndefined();
    expect(processSlot('refusalCounts', () => ({ counts: new Map() }))).not.toBe(first);
  });
});
