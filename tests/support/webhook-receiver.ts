// A local receiver for the alert webhook (lib/reactions/alerts): it checks each request's signature as
// docs/operations.md tells receivers to, answers 401 to an unsigned or badly signed one, 400 to a
// body that is not JSON, and otherwise what the test queued (204 when nothing is queued). Used by
// the alert tests and by the e2e global setup.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertPayload } from '../../lib/reactions/alerts/conditions';
import { verifyAlertSignature } from '../../lib/reactions/alerts/signature';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: AlertPayload;
  signed: boolean;
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  /** Every request, in arrival order. */
  received: ReceivedWebhook[];
  /** The statuses to answer the next signed requests with, in order (then 204). */
  answers: number[];
  /** The requests about one condition ("balance_low:12"). */
  about(condition: string): ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * `secret` may be read at each request: a webhook set through a page gets its secret only once the
 * receiver's URL is saved, so the test hands it over then.
 */
export async function startWebhookReceiver(secret: string | (() => string)): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver = { answers: [] as number[] };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: AlertPayload;
      try {
        body = JSON.parse(rawBody) as AlertPayload;
      } catch {
        // Not every request here is an alert: another test file's app, started on a port that was
        // free a moment before and that this receiver took meanwhile, is polled here for its
        // health (GET, no body) until it gives up on the port (tests/support/app-server.ts).
        // Answered 400 and left out of `received`; a sender of this file would see its attempt fail.
        console.error(`[webhook-receiver] ${request.method} ${request.url?.split('?')[0]}: a body that is not JSON (${rawBody.length} characters), answered 400`);
        response.writeHead(400).end();
        return;
      }
      const signed = verifyAlertSignature(typeof secret === 'function' ? secret() : secret, { signature: header(request.headers['x-alerta-firma']), timestamp: header(request.headers['x-alerta-fecha']) }, rawBody);
      const answered = signed ? (receiver.answers.shift() ?? 204) : 401;
      received.push({ headers: request.headers, rawBody, body, signed, answered });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alertas`,
    received,
    about: (condition: string) => received.filter((request) => request.body.condicion === condition),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
