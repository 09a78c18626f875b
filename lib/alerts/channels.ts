import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { formatDateTime } from '@/lib/time/guatemala-time';
import type { AlertPayload } from './conditions';
import type { EmailSettings, WebhookSettings } from './settings';
import { ALERT_ID_HEADER, SIGNATURE_HEADER, signAlert, TIMESTAMP_HEADER } from './signature';
import { withoutUrlSecrets } from '@/lib/http/outbound-urls';

// One attempt at one delivery, on each channel. An attempt never throws: it says how it went, and
// the outbox records it. Errors name what failed, never a secret: a URL they quote is reduced to
// its description (lib/http/outbound-urls.ts) before they are cut to length.

export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's HTTP status, or the SMTP server's reply code. */
  responseStatus: number | null;
  error: string | null;
  /** A failure no retry can fix (an integrator webhook's refused address): failed at once. */
  final?: boolean;
}

const MAX_ERROR_CHARS = 500;

export interface WebhookOptions {
  /**
   * The fetch to send with and its dispatcher: the integrator notifications pass undici's, with a
   * connection that reaches only the address their checks accepted (lib/integrator-notifications/ssrf.ts).
   */
  fetch?: (url: string, init: RequestInit & { dispatcher?: unknown }) => Promise<Response>;
  dispatcher?: unknown;
  userAgent?: string;
}

export async function sendWebhook(settings: WebhookSettings, alertId: string, rawBody: string, options: WebhookOptions = {}): Promise<AttemptOutcome> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const send = options.fetch ?? fetch;
    const response = await send(settings.url, {
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      method: 'POST',
      // A redirect is not followed: the signed alert goes only where it was configured to go.
      redirect: 'manual',
      signal: AbortSignal.timeout(settings.timeoutMs),
      headers: {
        'content-type': 'application/json',
        'user-agent': options.userAgent ?? 'pasarela-consultas-alertas/1',
        [ALERT_ID_HEADER]: alertId,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signAlert(settings.secret, timestamp, rawBody),
      },
      body: rawBody,
    });
    // Only the status matters; the body is read (bounded by the time-out) to free the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, responseStatus: response.status, error: null };
    return { ok: false, responseStatus: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { ok: false, responseStatus: null, error: timedOut ? `sin respuesta en ${settings.timeoutMs} ms` : describeFailure(error, settings.url) };
  }
}

export interface EmailMessage {
  to: string[];
  payload: AlertPayload;
}

export async function sendEmail(settings: EmailSettings, message: EmailMessage): Promise<AttemptOutcome> {
  return sendMail(settings, {
    to: message.to,
    subject: `[${message.payload.servicio}] ${message.payload.titulo}`,
    text: emailText(message.payload),
    headers: { 'X-Alerta-Id': message.payload.id },
  });
}

/** Any e-mail through the alerts' SMTP server (the integrator notifications send theirs here too). */
export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export async function sendMail(settings: EmailSettings, mail: Mail): Promise<AttemptOutcome> {
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTls,
    auth: settings.auth,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({ from: settings.from, ...mail });
    return { ok: true, responseStatus: 250, error: null };
  } catch (error) {
    const code = (error as { responseCode?: unknown }).responseCode;
    // With STARTTLS required, nodemailer tries it on a relay that never offered it, and fails by
    // whatever follows (a refused command, a certificate, a time-out): the operator is told the cause.
    if (settings.requireTls && !settings.secure && (await starttlsOffered(settings.host, settings.port)) === false) {
      return { ok: false, responseStatus: typeof code === 'number' ? code : null, error: starttlsMissing(settings) };
    }
    return { ok: false, responseStatus: typeof code === 'number' ? code : null, error: describeFailure(error) };
  } finally {
    transport.close();
  }
}

export function starttlsMissing(settings: Pick<EmailSettings, 'host' | 'port'>): string {
  return (
    `el servidor de correo ${settings.host}:${settings.port} no ofrece STARTTLS, que producción exige (la contraseña y los enlaces no viajan en claro): ` +
    'use uno que lo ofrezca, o ALERT_SMTP_SECURE=true si el servidor habla TLS desde el inicio (puerto 465)'
  );
}

const PROBE_TIMEOUT_MS = 5_000;

/**
 * Whether the relay lists STARTTLS in its answer to EHLO: true, false, or undefined when it could
 * not be asked (unreachable, silent, not SMTP). Nothing but EHLO and QUIT is sent.
 */
export function starttlsOffered(host: string, port: number): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let received = '';
    let greeted = false;
    const finish = (answer: boolean | undefined) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => finish(undefined));
    socket.on('error', () => finish(undefined));
    socket.on('close', () => finish(undefined));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.length > 64_000) return finish(undefined);
      // A reply is complete at its last line: the code followed by a space.
      const last = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(received);
      if (!last) return;
      if (!greeted) {
        if (last[1] !== '220') return finish(undefined);
        greeted = true;
        received = '';
        socket.write('EHLO localhost\r\n');
        return;
      }
      socket.write('QUIT\r\n');
      finish(last[1] === '250' ? /^250[ -]STARTTLS\b/im.test(received) : undefined);
    });
  });
}

/** The e-mail's body: the alert in words, then its facts. */
export function emailText(payload: AlertPayload): string {
  const lines = [payload.mensaje, ''];
  if (payload.integracion) {
    lines.push(`Integración: ${payload.integracion.nombre} (id ${payload.integracion.id})`);
  }
  if (payload.fuente?.ultimo_error) lines.push(`Último error de la fuente: ${payload.fuente.ultimo_error}`);
  lines.push(`Fecha: ${formatDateTime(payload.fecha)} (hora de Guatemala)`, `Entorno: ${payload.entorno}`, `Alerta: ${payload.id}`, '');
  lines.push('No se enviará otra alerta por la misma condición hasta que pase el intervalo configurado (ALERT_REPEAT_INTERVAL_MINUTES).');
  return lines.join('\n');
}

export function describeFailure(error: unknown, secretUrl?: string): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 3; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${code}: ${current.message}` : current.message);
  }
  const text = withoutUrlSecrets(parts.join(' ← ') || String(error), secretUrl);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}
