import { describe, expect, it } from 'vitest';
import { domainEvent } from './domain-event';

describe('a domain event', () => {
  it('emits to each listener in the order subscribed, each awaited, and stops on an error', async () => {
    const event = domainEvent<number>('test.emit');
    const heard: string[] = [];
    event.subscribe(async (n) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      heard.push(`first ${n}`);
    });
    const unsubscribe = event.subscribe((n) => {
      heard.push(`second ${n}`);
    });
    await event.emit(1);
    unsubscribe();
    await event.emit(2);
    expect(heard).toEqual(['first 1', 'second 1', 'first 2']);

    event.subscribe(() => {
      throw new Error('refused');
    });
    await expect(event.emit(3)).rejects.toThrow('refused');
  });

  it('settles with every listener tried and the errors of those that failed', async () => {
    const event = domainEvent<string>('test.settle');
    const heard: string[] = [];
    event.subscribe(() => {
      throw new Error('first failed');
    });
    event.subscribe(async (payload) => {
      heard.push(payload);
    });
    const failures = await event.settle('job 7');
    expect(heard).toEqual(['job 7']);
    expect(failures.map((error) => (error as Error).message)).toEqual(['first failed']);

    const quiet = domainEvent<string>('test.settle-quiet');
    quiet.subscribe(() => undefined);
    expect(await quiet.settle('x')).toEqual([]);
  });

  it('reaches the listeners of another copy of the same event, as another bundle would', async () => {
    const heard: number[] = [];
    domainEvent<number>('test.copies').subscribe((n) => {
      heard.push(n);
    });
    domainEvent<number>('test.copies').tell(4);
    expect(heard).toEqual([4]);
  });
});
