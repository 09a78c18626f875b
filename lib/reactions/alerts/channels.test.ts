// A relay that does not offer STARTTLS, met by production's required STARTTLS: the failure says
// so, at once, instead of whatever nodemailer's forced STARTTLS ran into (a certificate, a refused
// command, a time-out).
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { explainDeliveryError } from './delivery-errors';
import { sendMail, type EmailSettings } from '@/lib/platform/mail/smtp';

const servers: SMTPServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

async function relay(options: SMTPServerOptions): Promise<{ port: number; received: string[] }> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    ...options,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(session.envelope.rcptTo.map((recipient) => recipient.address).join(','));
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, received };
}

const mail = { to: ['ana@example.com'], subject: 'Invitación', text: 'Hola' };
const settings = (port: number, requireTls: boolean): EmailSettings => ({ host: '127.0.0.1', port, secure: false, requireTls, from: 'portal@pasarela.example' });

describe('sendMail and a relay without STARTTLS', () => {
  it('says the relay does not offer STARTTLS when production requires it, and sends nothing', async () => {
    for (const options of [{ hideSTARTTLS: true }, { disabledCommands: ['STARTTLS'] }] satisfies SMTPServerOptions[]) {
      const plain = await relay(options);
      const started = Date.now();
      const outcome = await sendMail(settings(plain.port, true), mail);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toContain(`el servidor de correo 127.0.0.1:${plain.port} no ofrece STARTTLS`);
      expect(outcome.error).toContain('ALERT_SMTP_SECURE=true');
      expect(plain.received).toEqual([]);
      // The console's alert list shows the same words, not "vea el detalle técnico".
      expect(explainDeliveryError(outcome.error!, { channel: 'email', target: 'ana@example.com' })).toEqual({ text: outcome.error });
    }
  });

  it('sends through the same relay when STARTTLS is not required (development)', async () => {
    const plain = await relay({ hideSTARTTLS: true, disabledCommands: ['STARTTLS'] });
    expect(await sendMail(settings(plain.port, false), mail)).toMatchObject({ ok: true });
    expect(plain.received).toEqual(['ana@example.com']);
  });

  it('keeps another failure’s own words (a relay that offers STARTTLS with a certificate it cannot verify)', async () => {
    const offering = await relay({});
    const outcome = await sendMail(settings(offering.port, true), mail);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).not.toContain('no ofrece STARTTLS');
  });
});
