// New deliveries are announced to every delivering process (lib/reactions/alerts/outbox.ts): a notice the CLI
// or another instance queued is sent at once, not at the next idle look of the outbox, 30 s later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAlertDelivery } from '@/db/schema';
import { enqueueDeliveries, listenForQueuedDeliveries } from './outbox';
import { useTestDatabase, type TestDatabase } from '../../../tests/support/test-database';

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

function delivery(alertId: string, status?: NewAlertDelivery['status']): NewAlertDelivery {
  return {
    alertId,
    condition: 'test',
    channel: 'webhook',
    audience: 'administrators',
    target: 'https://alertas.example/hook',
    payload: JSON.stringify({ id: alertId }),
    ...(status ? { status } : {}),
  };
}

describe('the outbox', () => {
  it('tells its listeners when deliveries to send are queued, and not when nothing was written or nothing is left to send', async () => {
    let announced = 0;
    let listening = 0;
    const stop = await listenForQueuedDeliveries(
      () => void (announced += 1),
      () => void (listening += 1),
    );
    expect(stop).toBeDefined();
    expect(listening).toBe(1);
    try {
      // In commit order: a condition already claimed writes nothing, a row already settled has
      // nothing to send; only the third is announced, and once.
      expect(await enqueueDeliveries('outbox-test:a', 3_600, async () => [delivery('alr_outbox_1')])).toHaveLength(1);
      await expect.poll(() => announced).toBe(1);
      expect(await enqueueDeliveries('outbox-test:a', 3_600, async () => [delivery('alr_outbox_2')])).toEqual([]);
      expect(await enqueueDeliveries('outbox-test:b', 3_600, async () => [delivery('alr_outbox_3', 'not_sent')])).toHaveLength(1);
      expect(await enqueueDeliveries('outbox-test:c', 3_600, async () => [delivery('alr_outbox_4')])).toHaveLength(1);
      await expect.poll(() => announced).toBe(2);
    } finally {
      await stop?.();
    }
  });
});
