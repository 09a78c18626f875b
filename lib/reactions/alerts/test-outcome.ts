import { asc, inArray } from 'drizzle-orm';
import { db } from '@/db/client';
import { alertDeliveries, type AlertDelivery } from '@/db/schema';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { explainDeliveryError } from './delivery-errors';

// What "Enviar aviso de prueba" answers: the test's deliveries are sent by the delivery loop
// (usually this instance's, woken at once), so the action waits for their first attempts, a few
// seconds at most, and says how each went; the list on the page shows the rest (the retries).

/** The test's deliveries once each has had its first attempt, or as they are after `timeoutMs`. */
export async function awaitFirstAttempts(deliveryIds: number[], timeoutMs: number): Promise<AlertDelivery[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = deliveryIds.length === 0 ? [] : await (await db()).select().from(alertDeliveries).where(inArray(alertDeliveries.id, deliveryIds)).orderBy(asc(alertDeliveries.id));
    if (rows.every((row) => row.attempts > 0 || row.status !== 'pending') || Date.now() >= deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export interface TestOutcome {
  /** success: every delivery arrived; error: one failed (for now or for good); info: not tried yet. */
  tone: 'success' | 'error' | 'info';
  text: string;
}

export function describeTestOutcome(rows: AlertDelivery[], maxAttempts: number): TestOutcome {
  const sentences = rows.map((row) => sentence(row, maxAttempts));
  const tone = rows.some((row) => row.status === 'failed' || (row.status === 'pending' && row.attempts > 0))
    ? 'error'
    : rows.length > 0 && rows.every((row) => row.status === 'sent')
      ? 'success'
      : 'info';
  return { tone, text: sentences.join(' ') };
}

function sentence(row: AlertDelivery, maxAttempts: number): string {
  const to = row.channel === 'email' ? `por correo a ${row.target}` : `a ${row.target}`;
  if (row.status === 'sent') return row.channel === 'email' ? `Entregado ${to}.` : `Entregado ${to}: respondió ${row.lastResponseStatus}.`;
  const why = row.lastError === null ? '' : `: ${explainDeliveryError(row.lastError, row).text}`;
  if (row.status === 'failed') return `No se entregó ${to}${why}. No se reintenta.`;
  if (row.status === 'not_sent') return `No se envió ${to}${why}.`;
  if (row.attempts === 0) return `En camino ${to}: el resultado aparecerá en la lista.`;
  return `No se entregó ${to}${why}. Se reintenta ${formatDateTime(row.nextAttemptAt)} (intento ${row.attempts + 1} de ${maxAttempts}).`;
}
