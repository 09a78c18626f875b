import { guatemalanToday } from '../../lib/platform/time/guatemala-time';

/**
 * Runs `step` until it starts and ends on the same day in Guatemala (at most three times: midnight
 * passes once) and gives that day with what `step` gave. A test that reads a page's date presets or
 * a day's records anchors its expectations on that day, so it holds across Guatemala's midnight.
 */
export async function onOneGuatemalanDay<T>(step: () => Promise<T>): Promise<{ day: string; value: T }> {
  for (let attempt = 1; ; attempt += 1) {
    const day = guatemalanToday();
    const value = await step();
    if (guatemalanToday() === day || attempt === 3) return { day, value };
  }
}
