// The operator CLI's portal:invite (issue 33, point 2): an integration's first owner invited from
// the terminal, in the CLI's Spanish. The test runs it as development does without an SMTP server,
// where the single-use link is the command's answer; the link opens the invitation (read here as
// the portal reads it), and the audit says who invited whom. In production: the refusal without
// mail names ALERT_SMTP_* and --link, which hands an invitation or reset link over once with an
// audited reason (the link never in the audit), and a relay without STARTTLS is named as such.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptInvitation, invitationForCode } from '@/lib/flows/portal-identity/invitations';
import { passwordResetForCode } from '@/lib/flows/portal-identity/passwords';
import { runCli } from '../support/cli';
import { TEST_PRODUCTION_SETTINGS } from '../support/production-settings';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { cliFixture } from './cli-fixture';

const { testDb, cli, cliJson, createIntegration, auditRows } = cliFixture('cli-portal');

describe('operator CLI: portal:invite', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('invites an integration’s owner by e-mail and, without SMTP in development, answers with the link', async () => {
    const integration = await createIntegration();
    const invited = await cli('portal:invite', '--integration', integration.nombre, '--email', 'Duena@Example.com');
    expect(invited.code).toBe(0);
    expect(invited.stdout).toContain(`Invitación al portal para duena@example.com como propietario de «${integration.nombre}»; vence el `);
    expect(invited.stdout).toContain('Sin servidor de correo (entorno de desarrollo), este es el enlace; sirve una sola vez:');
    const code = /\/portal\/invitacion\?codigo=([A-Za-z0-9_-]{43})/.exec(invited.stdout)?.[1];
    expect(code).toBeDefined();
    expect(await testDb().use(() => invitationForCode(code))).toMatchObject({ state: 'valid', email: 'duena@example.com', role: 'propietario', integrationName: integration.nombre });

    const audit = await auditRows('integration', integration.id);
    expect(audit.filter((row) => row.action === 'portal.invite')).toEqual([
      expect.objectContaining({ actor: expect.stringMatching(/^cli(:|$)/), after: expect.objectContaining({ email: 'duena@example.com', role: 'propietario' }) }),
    ]);
    // The link is in the answer only: the audit and the invitation row keep no part of it.
    expect(JSON.stringify(audit)).not.toContain(code);
  });

  it('takes another role, answers --json, and refuses what it cannot do in Spanish', async () => {
    const integration = await createIntegration();
    const json = await cliJson<{ email: string; role: string; delivery: string; link?: string }>('portal:invite', '--integration', String(integration.id), '--email', 'dev@example.com', '--role', 'desarrollador');
    expect(json).toMatchObject({ email: 'dev@example.com', role: 'desarrollador', delivery: 'terminal' });
    expect(json.link).toMatch(/\/portal\/invitacion\?codigo=/);

    const badRole = await cli('portal:invite', '--integration', integration.nombre, '--email', 'x@example.com', '--role', 'owner');
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role es propietario, desarrollador o facturacion; se recibió «owner»');
    const noEmail = await cli('portal:invite', '--integration', integration.nombre);
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('falta --email');
    const badEmail = await cli('portal:invite', '--integration', integration.nombre, '--email', 'no-es-un-correo');
    expect(badEmail.code).toBe(2);
    expect(badEmail.stderr).toContain('Escriba un correo electrónico válido.');
    const unknown = await cli('portal:invite', '--integration', 'no-existe', '--email', 'y@example.com');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('no existe la integración «no-existe»');
  });

  it('removes a portal user’s second factor (a lost phone and codes), ending their sessions, audited', async () => {
    const integration = await createIntegration();
    const invited = await cliJson<{ link: string }>('portal:invite', '--integration', integration.nombre, '--email', 'sin-telefono@example.com');
    const code = new URL(invited.link).searchParams.get('codigo');
    const accepted = await testDb().use(() => acceptInvitation(code, { nombre: 'Sin teléfono', clave: 'ceiba grande del parque central' }, { clientIp: '192.0.2.1', userAgent: 'test' }));
    if (!accepted.ok) throw new Error(accepted.error.message);
    const userId = accepted.value.userId;
    await testDb().use((handle) => handle.rows(sql`insert into portal_two_factor (user_id, secret_ciphertext, confirmed_at) values (${userId}, 'v1.sealed', now())`));

    const reset = await cliJson<{ userId: number; sessionsEnded: number }>('portal:reset-two-factor', 'Sin-Telefono@example.com');
    expect(reset).toMatchObject({ userId, sessionsEnded: 1 });
    const [left] = await testDb().use((handle) => handle.rows<{ factors: number; sessions: number }>(sql`
      select (select count(*)::int from portal_two_factor where user_id = ${userId}) as factors,
             (select count(*)::int from portal_sessions where user_id = ${userId}) as sessions`));
    expect(left).toEqual({ factors: 0, sessions: 0 });
    expect((await auditRows('portal_user', userId)).filter((row) => row.action === 'portal_user.reset_two_factor')).toEqual([
      expect.objectContaining({ actor: expect.stringMatching(/^cli(:|$)/), before: { twoFactor: true, sessions: 1 } }),
    ]);

    const again = await cli('portal:reset-two-factor', 'sin-telefono@example.com');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('no tiene la verificación en dos pasos activada');
    const nobody = await cli('portal:reset-two-factor', 'nadie@example.com');
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain('no hay una cuenta del portal con el correo nadie@example.com');
  });
});

// Production requires PostgreSQL: on PGlite the same commands run as development does.
describe('operator CLI: portal links without mail', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const onPostgres = () => testDb().kind === 'postgres';
  const withoutMail = { ALERT_SMTP_HOST: '', ALERT_EMAIL_FROM: '' };
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-portal-journal-'));
  afterAll(() => fs.rmSync(journal, { recursive: true, force: true }));
  const production = () => ({ ...TEST_PRODUCTION_SETTINGS, NEXTAUTH_SECRET: 'cli-portal-test-secret-of-at-least-32-characters', RECORD_JOURNAL_DIR: journal });
  const run = (extra: Record<string, string>, ...args: string[]) => runCli(args, testDb().env, { ...(onPostgres() ? production() : {}), ...withoutMail, ...extra });
  const LINK = (path: string) => new RegExp(`(?:https://consola\\.example\\.test|http://localhost:\\d+)${path.replaceAll('/', '\\/')}\\?codigo=([A-Za-z0-9_-]{43})`);

  it('without mail, production refuses to invite naming ALERT_SMTP_* and --link; --link hands the link over with an audited reason', async () => {
    const integration = await createIntegration();
    const plain = await run({}, 'portal:invite', '--integration', integration.nombre, '--email', 'contadora@example.com');
    if (onPostgres()) {
      expect(plain.code).toBe(2);
      expect(plain.stderr).toContain('Este servicio no tiene servidor de correo: la invitación no se puede enviar. Configure ALERT_SMTP_HOST y ALERT_EMAIL_FROM');
      expect(plain.stderr).toContain('repita la orden con --link --reason "quién lo pidió y por qué"');
    } else {
      expect(plain.stdout).toContain('Sin servidor de correo (entorno de desarrollo), este es el enlace');
    }

    const noReason = await run({}, 'portal:invite', '--integration', integration.nombre, '--email', 'contadora@example.com', '--link');
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--link exige un motivo');

    const handed = await run({}, 'portal:invite', '--integration', integration.nombre, '--email', 'contadora@example.com', '--role', 'facturacion', '--link', '--reason', 'ticket 4412: la contadora no recibe correos externos');
    expect(handed.code).toBe(0);
    expect(handed.stdout).toContain('No se envió correo: entregue este enlace a esa persona por un medio seguro; sirve una sola vez.');
    const code = LINK('/portal/invitacion').exec(handed.stdout)?.[1];
    expect(code).toBeDefined();
    expect(await testDb().use(() => invitationForCode(code))).toMatchObject({ state: 'valid', email: 'contadora@example.com', role: 'facturacion' });

    const audit = await auditRows('integration', integration.id);
    expect(audit.filter((row) => row.action === 'portal.invite_link_handed_over')).toEqual([
      expect.objectContaining({
        actor: expect.stringMatching(/^cli(:|$)/),
        after: expect.objectContaining({ email: 'contadora@example.com', role: 'facturacion', reason: 'ticket 4412: la contadora no recibe correos externos' }),
      }),
    ]);
    expect(JSON.stringify(audit)).not.toContain(code);
  });

  it('hands over a password reset link with a reason, audited without the link', async () => {
    const integration = await createIntegration();
    const invited = await run({}, 'portal:invite', '--integration', integration.nombre, '--email', 'dev-olvido@example.com', '--link', '--reason', 'alta inicial', '--json');
    const code = new URL(invited.json<{ link: string }>().link).searchParams.get('codigo');
    const accepted = await testDb().use(() => acceptInvitation(code, { nombre: 'Dev Olvido', clave: 'ceiba grande del parque central' }, { clientIp: '192.0.2.1', userAgent: 'test' }));
    if (!accepted.ok) throw new Error(accepted.error.message);

    const noLink = await run({}, 'portal:reset-password', 'dev-olvido@example.com');
    expect(noLink.code).toBe(2);
    expect(noLink.stderr).toContain('agregue --link --reason');
    const noReason = await run({}, 'portal:reset-password', 'dev-olvido@example.com', '--link', '--reason', '  ');
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--link exige un motivo');
    const nobody = await run({}, 'portal:reset-password', 'nadie@example.com', '--link', '--reason', 'x');
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain('No hay una cuenta del portal con ese correo.');

    const reset = await run({}, 'portal:reset-password', 'Dev-Olvido@example.com', '--link', '--motivo', 'llamada de soporte 8812, identidad confirmada');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(`Enlace para restablecer la contraseña del portal de dev-olvido@example.com («${integration.nombre}»); vence el `);
    const resetCode = LINK('/portal/restablecer/clave').exec(reset.stdout)?.[1];
    expect(await testDb().use(() => passwordResetForCode(resetCode))).toEqual({ state: 'valid', email: 'dev-olvido@example.com' });
    const audit = await auditRows('portal_user', accepted.value.userId);
    expect(audit.filter((row) => row.action === 'portal_user.reset_link_handed_over')).toEqual([
      expect.objectContaining({ actor: expect.stringMatching(/^cli(:|$)/), after: expect.objectContaining({ reason: 'llamada de soporte 8812, identidad confirmada' }) }),
    ]);
    expect(JSON.stringify(audit)).not.toContain(resetCode);
  });

  it('names a relay without STARTTLS in production (not a time-out); development sends through it', async () => {
    const integration = await createIntegration();
    const received: string[] = [];
    const relay = new SMTPServer({
      hideSTARTTLS: true,
      authOptional: true,
      onData: (stream, session, callback) => {
        received.push(...session.envelope.rcptTo.map((recipient) => recipient.address));
        stream.resume().on('end', () => callback());
      },
    });
    relay.on('error', () => undefined);
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.server.address() as AddressInfo).port;
    try {
      const smtp = { ALERT_SMTP_HOST: '127.0.0.1', ALERT_SMTP_PORT: String(port), ALERT_EMAIL_FROM: 'portal@pasarela.example' };
      const invited = await run(smtp, 'portal:invite', '--integration', integration.nombre, '--email', 'sin-tls@example.com');
      if (onPostgres()) {
        expect(invited.code).toBe(2);
        expect(invited.stderr).toContain(`el servidor de correo 127.0.0.1:${port} no ofrece STARTTLS`);
        expect(invited.stderr).not.toMatch(/timeout|no respondió|certificate/i);
        expect(received).toEqual([]);
      } else {
        expect(invited.code).toBe(0);
        expect(invited.stdout).toContain('Se envió por correo');
        expect(received).toEqual(['sin-tls@example.com']);
      }
    } finally {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});
