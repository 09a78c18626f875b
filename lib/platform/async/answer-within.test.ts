import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { answerWithin } from './answer-within';

describe('answerWithin', () => {
  it('takes a reply that arrived while the event loop was busy past the deadline (a burst, not a Redis outage)', async () => {
    // A connected pair of sockets on loopback; the far end writes the reply at once, and the kernel
    // holds it for the near end while this process is busy.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const near = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    const far = await accepted;
    await new Promise((resolve) => near.once('connect', resolve));
    try {
      const reply = new Promise<string>((resolve) => near.once('data', (data) => resolve(data.toString())));
      far.write('PONG');
      const answer = answerWithin(reply, 50);
      // The instance is busy for twice the deadline (2,000 requests arriving at once).
      const busyUntil = Date.now() + 100;
      while (Date.now() < busyUntil);
      await expect(answer).resolves.toBe('PONG');
      await expect(answerWithin(new Promise(() => {}), 50)).rejects.toThrow('no answer within 50 ms');
      await expect(answerWithin(new Promise(() => {}), 20, 'reloading')).rejects.toThrow('reloading within 20 ms');
    } finally {
      near.destroy();
      far.destroy();
      server.close();
    }
  });
});
