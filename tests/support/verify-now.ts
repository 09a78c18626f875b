// Driving "Verificar ahora" over HTTP as the Panel does, for the console test and the PostgreSQL
// suite's held-run test.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ConsoleClient } from './console-client';

export const STARTED = 'Conciliación iniciada: su avance se muestra arriba.';
export const ALREADY_RUNNING = 'Ya hay una conciliación en curso';

/** The Panel's text as a person reads it (tags and React's text separators removed). */
export async function panel(client: ConsoleClient): Promise<string> {
  const answer = await client.request('/admin');
  expect(answer.status).toBe(200);
  return answer.text
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

/** The Panel's text once `done` accepts it (or the last one read, after a minute). */
export async function panelUntil(client: ConsoleClient, done: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 60_000;
  let text = '';
  while (Date.now() < deadline) {
    text = await panel(client);
    if (done(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return text;
}

/** Presses "Verificar ahora" (all integrations, or the one named). */
export function startVerification(client: ConsoleClient, integracion = '') {
  return client.serverAction('/admin', 'startLedgerVerification', { integracion, envio: randomUUID() });
}

/** Whether an action's answer carries a text (as the RSC payload writes it: JSON-escaped). */
export function says(answer: { text: string }, text: string): boolean {
  return answer.text.includes(JSON.stringify(text).slice(1, -1));
}
