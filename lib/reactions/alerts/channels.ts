import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import type { AlertPayload } from './conditions';
import type { EmailSettings, WebhookSettings } from './settings';
import { ALERT_ID_HEADER, SIGNATURE_HEADER, signAlert, TIMESTAMP_HEADER } from './signature';
import { describeFailure, type AttemptOutcome } from '@/lib/platform/http/delivery-attempt';
import { sendMail } from '@/lib/platform/mail/smtp';

// One attempt at one delivery, on each channel. An attempt never throws: it says how it went, and
// the outbox records it. Errors name what failed, never a secret: a URL they quote is reduced to
// its description (lib/platform/security/outbound-urls.ts) before they are cut to length.


export interface WebhookOptions {
  /**
   * The fetch to send with and its dispatcher: the integrator notifications pass undici's, with a
   * connection that reaches only the address their checks accepted (lib/reactions/integrator-notifications/ssrf.ts).
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
