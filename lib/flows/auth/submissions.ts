// Console forms send a submission key (a fresh one per form, renewed after each success). The same
// key sent twice, a double click or a resend, gets the first sending's answer instead of doing the
// change again: a double submit never shows an error under a successful action, nor tops up twice.
// The keys live in this process (a browser's resend reuses its connection, so it reaches the same
// instance); see docs/decisions.md.
import { processSlot } from '@/lib/platform/runtime/process-state';

const KEEP_MS = 10 * 60_000;
const MAX_KEYS = 10_000;

interface Remembered {
  answer: Promise<unknown>;
  expiresAt: number;
}

const submissions = processSlot('consoleSubmissions', () => new Map<string, Remembered>());

/** The key a form sent, if it is one of ours (a UUID). */
export function submissionKey(input: unknown): string | undefined {
  const key = (input as { envio?: unknown } | null)?.envio;
  return typeof key === 'string' && /^[0-9a-f-]{36}$/i.test(key) ? key : undefined;
}

/**
 * Runs `act` once per (scope, key): a repeat while it runs, or after it succeeded, gets its answer.
 * A refusal is forgotten once answered, so a corrected resend is never answered with it.
 */
export function once<T>(scope: string, key: string | undefined, succeeded: (answer: T) => boolean, act: () => Promise<T>): Promise<T> {
  if (key === undefined) return act();
  const now = Date.now();
  const id = `${scope}:${key}`;
  const known = submissions.get(id);
  if (known && known.expiresAt > now) return known.answer as Promise<T>;
  if (submissions.size >= MAX_KEYS) {
    for (const [stored, entry] of submissions) if (entry.expiresAt <= now || submissions.size >= MAX_KEYS) submissions.delete(stored);
  }
  const answer = act();
  submissions.set(id, { answer, expiresAt: now + KEEP_MS });
  answer.then(
    (value) => {
      if (!succeeded(value)) submissions.delete(id);
    },
    () => submissions.delete(id),
  );
  return answer;
}
