// The operator CLI's portal:invite (issue 33, point 2): an integration's first owner invited from
// the terminal, in the CLI's Spanish. The test runs it as development does without an SMTP server,
// where the single-use link is the command's answer; the link opens the invitation (read here as
// the portal reads it), and the audit says who invited whom.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { acceptInvitation, invitationForCode } from '@/lib/portal/invitations';
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
    expect(badEmail.stderr).toContain('Escribe un correo electrónico válido.');
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
