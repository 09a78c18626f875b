// A local SMTP server for the integrator notification tests (lib/reactions/integrator-notifications): it
// accepts every message (no TLS, any credentials) and keeps each one whole, so a test can read its
// recipients, subject, text and attachments.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  /** The messages sent to one address. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw, subject: decodeHeader(/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? '') });
        callback();
      });
    },
  });
  // A client that goes away mid-connection (an app stopped while its mail pool is open) resets its
  // socket; smtp-server reports that as a server error, which unheard would fail the test run.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    to: (address) => mails.filter((mail) => mail.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A MIME part's text by its content type ("text/plain"), decoded from quoted-printable or base64. */
export function mimePart(raw: string, contentType: string): { headers: string; body: Buffer } | undefined {
  const start = raw.search(new RegExp(`^Content-Type: ${contentType.replace('/', '\\/')}`, 'mi'));
  if (start < 0) return undefined;
  const headerEnd = raw.indexOf('\r\n\r\n', start);
  const headers = raw.slice(start, headerEnd);
  const rest = raw.slice(headerEnd + 4);
  const body = rest.slice(0, rest.search(/\r\n--/) >= 0 ? rest.search(/\r\n--/) : undefined);
  if (/Content-Transfer-Encoding: base64/i.test(headers)) return { headers, body: Buffer.from(body.replace(/\s+/g, ''), 'base64') };
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers)) return { headers, body: Buffer.from(decodeQuotedPrintable(body), 'utf8') };
  return { headers, body: Buffer.from(body, 'utf8') };
}

/** A mail header's text, unfolded, with its RFC 2047 encoded words (UTF-8, Q or B) decoded. */
export function decodeHeader(value: string): string {
  const unfolded = value.replace(/\r\n[ \t]/g, ' ');
  return unfolded.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_match, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replaceAll('_', ' ')),
  );
}

export function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
  return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
}
