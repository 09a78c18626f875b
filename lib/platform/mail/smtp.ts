// E-mail through the deployment's SMTP relay (ALERT_SMTP_*): the administrators' alerts, the
// integrators' notices and the portal's invitation and reset links all leave here.
import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { MAIL_SETTINGS, type MailSettings } from './settings';
import { describeFailure, type AttemptOutcome } from '@/lib/platform/http/delivery-attempt';

export interface EmailSettings {
  host: string;
  port: number;
  secure: boolean;
  /** STARTTLS is mandatory (production without ALERT_SMTP_SECURE): never send the password in clear. */
  requireTls: boolean;
  auth?: { user: string; pass: string };
  from: string;
  /** Fixed recipients; undefined: every active console administrator. */
  to?: string[];
}

/** The relay's settings out of the validated environment; undefined when none is configured. */
export function emailSettingsFrom(env: Pick<Env, 'APP_ENV'> & MailSettings): EmailSettings | undefined {
  return env.ALERT_SMTP_HOST && env.ALERT_EMAIL_FROM
    ? {
        host: env.ALERT_SMTP_HOST,
        port: env.ALERT_SMTP_PORT,
        secure: env.ALERT_SMTP_SECURE,
        requireTls: env.APP_ENV === 'production' && !env.ALERT_SMTP_SECURE,
        auth: env.ALERT_SMTP_USER && env.ALERT_SMTP_PASS ? { user: env.ALERT_SMTP_USER, pass: env.ALERT_SMTP_PASS } : undefined,
        from: env.ALERT_EMAIL_FROM,
        to: env.ALERT_EMAIL_TO,
      }
    : undefined;
}

/** The process's relay; undefined when none is configured. */
export function configuredEmail(): EmailSettings | undefined {
  return emailSettingsFrom(currentSettings([PLATFORM_SETTINGS, MAIL_SETTINGS]));
}

/** Any e-mail: an alert, a notice, a portal link. */
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
