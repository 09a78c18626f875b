// Invitations as the people on both ends meet them, on a real database (PGlite, or PostgreSQL when
// the run has DATABASE_URL): an administrator cancels a pending one (its link's page says it was
// cancelled, once audited however often it is asked, and a cancellation racing the acceptance ends
// one way); a resend is told apart from a first invitation; an invitation without a role is
// refused; and the e-mail (through a real SMTP receiver) says who invited and from which company.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { decodeQuotedPrintable, startSmtpReceiver, type SmtpReceiver } from '@/tests/support/smtp-receiver';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { findPortalAccountByEmail } from '@/lib/flows/portal-identity/accounts';
import { acceptInvitation, INVITATION_MESSAGES, invitationForCode, invitePortalUser } from '@/lib/flows/portal-identity/invitations';
import type { PortalUserSession } from './session';
import { findPortalSession, portalUserSessionOf } from '@/lib/flows/portal-identity/sessions';
import { cancelInvitation, cancelInvitationAsStaff, resendInvitation, resendInvitationAsStaff, TEAM_MESSAGES, teamOf } from '@/lib/flows/portal-identity/team';

const CLI: Actor = { kind: 'cli', name: 'pruebas' };
const ADMIN: Actor = { kind: 'user', id: 7, email: 'admin-invitaciones@example.com' };
const ORIGIN = { clientIp: '192.0.2.81', userAgent: 'vitest' };
const PASSWORD = 'mango verde con pepita y limón';

let testDatabase: TestDatabase;
let integration: { id: number; nombre: string };
let other: { id: number; nombre: string };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await newIntegration('distribuidora-quetzal');
  other = await newIntegration('otra-empresa');
});
afterAll(async () => {
  await testDatabase.cleanup();
});

async function newIntegration(nombre: string) {
  const created = await createIntegration(CLI, { nombre, tariffCentavos: 150, flags: {}, initialBalanceCentavos: 10_000, note: 'prueba' });
  if (!created.ok) throw new Error(created.error.message);
  return { id: created.value.integration.id, nombre };
}

/** Invites and answers the invitation's id and its link's code (printed, as development does without SMTP). */
async function invite(inviter: Parameters<typeof invitePortalUser>[0], email: string, role = 'facturacion'): Promise<{ id: number; code: string }> {
  const printed: string[] = [];
  const sent = await invitePortalUser(inviter, { email, role }, { printer: (line) => printed.push(line) });
  if (!sent.ok) throw new Error(sent.error.message);
  const code = /codigo=([A-Za-z0-9_-]{43})/.exec(printed.at(-1) ?? '')?.[1];
  if (!code) throw new Error(`no link was printed: ${printed.join('\n')}`);
  return { id: sent.value.id, code };
}

async function owner(email: string, name: string): Promise<PortalUserSession> {
  const { code } = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, email, 'propietario');
  const accepted = await acceptInvitation(code, { nombre: name, clave: PASSWORD }, ORIGIN);
  if (!accepted.ok) throw new Error(accepted.error.message);
  const found = (await findPortalSession(accepted.value.sessionId))!;
  return portalUserSessionOf(found);
}

async function cancellationsAudited(email: string) {
  const rows = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'portal.cancel_invitation'), eq(auditLog.targetId, String(integration.id))));
  return rows.filter((row) => JSON.stringify(row.before).includes(email));
}

describe('an administrator cancels a pending invitation', () => {
  it('stops its link at once: the page says it was cancelled, accepting it is refused so, audited once with the administrator', async () => {
    const { id, code } = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'cancelada@example.com');
    expect(await invitationForCode(code)).toMatchObject({ state: 'valid' });

    expect(await cancelInvitationAsStaff(ADMIN, integration.id, id)).toEqual({ ok: true, value: { email: 'cancelada@example.com', already: false } });
    expect(await invitationForCode(code)).toEqual({ state: 'cancelled' });
    expect(await acceptInvitation(code, { nombre: 'Tarde', clave: PASSWORD }, ORIGIN)).toEqual({ ok: false, error: { code: 'link', message: INVITATION_MESSAGES.linkCancelled } });
    expect(INVITATION_MESSAGES.linkCancelled).toMatch(/^Esta invitación fue cancelada/);
    expect(await findPortalAccountByEmail('cancelada@example.com')).toBeUndefined();
    expect((await teamOf(integration.id)).invitations.map((invitation) => invitation.email)).not.toContain('cancelada@example.com');

    // Asked again (a double click, a second tab): the same answer, nothing more audited.
    expect(await cancelInvitationAsStaff(ADMIN, integration.id, id)).toEqual({ ok: true, value: { email: 'cancelada@example.com', already: true } });
    const audited = await cancellationsAudited('cancelada@example.com');
    expect(audited).toHaveLength(1);
    expect(audited[0]!.actor).toBe('user:7 admin-invitaciones@example.com');
  });

  it('answers another integration’s invitation as one that does not exist, and leaves it working', async () => {
    const { id, code } = await invite({ kind: 'staff', actor: CLI, integrationId: other.id }, 'de-otra@example.com');
    expect(await cancelInvitationAsStaff(ADMIN, integration.id, id)).toEqual({ ok: false, error: { code: 'not_found', message: TEAM_MESSAGES.staffCancelNotFound } });
    expect(await invitationForCode(code)).toMatchObject({ state: 'valid' });
  });

  it('after the person accepted says so, and the account stays', async () => {
    const { id, code } = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'acepto-antes@example.com');
    expect((await acceptInvitation(code, { nombre: 'A tiempo', clave: PASSWORD }, ORIGIN)).ok).toBe(true);
    expect(await cancelInvitationAsStaff(ADMIN, integration.id, id)).toEqual({ ok: false, error: { code: 'accepted', message: TEAM_MESSAGES.invitationAccepted } });
    expect(await findPortalAccountByEmail('acepto-antes@example.com')).toMatchObject({ integrationId: integration.id });
  });

  it('racing the acceptance ends one way: either the account and a refused cancellation, or the cancellation and no account', async () => {
    for (let round = 0; round < 4; round += 1) {
      const email = `carrera-${round}@example.com`;
      const { id, code } = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, email);
      const [cancelled, accepted] = await Promise.all([cancelInvitationAsStaff(ADMIN, integration.id, id), acceptInvitation(code, { nombre: 'Veloz', clave: PASSWORD }, ORIGIN)]);
      const account = await findPortalAccountByEmail(email);
      if (accepted.ok) {
        expect(cancelled).toEqual({ ok: false, error: { code: 'accepted', message: TEAM_MESSAGES.invitationAccepted } });
        expect(account).toBeDefined();
        expect(await cancellationsAudited(email)).toEqual([]);
      } else {
        expect(cancelled).toMatchObject({ ok: true, value: { already: false } });
        expect(accepted.error).toEqual({ code: 'link', message: INVITATION_MESSAGES.linkCancelled });
        expect(account).toBeUndefined();
        expect(await cancellationsAudited(email)).toHaveLength(1);
      }
    }
  });

  it('an owner’s cancellation, too, makes the page say cancelled, and a second one changes nothing', async () => {
    const ana = await owner('ana-cancela@example.com', 'Ana Cancela');
    const { id, code } = await invite({ kind: 'owner', user: ana }, 'cancelada-por-duena@example.com');
    expect(await cancelInvitation(ana, id)).toEqual({ ok: true, value: { email: 'cancelada-por-duena@example.com', already: false } });
    expect(await cancelInvitation(ana, id)).toEqual({ ok: true, value: { email: 'cancelada-por-duena@example.com', already: true } });
    expect(await invitationForCode(code)).toEqual({ state: 'cancelled' });
    expect(await cancellationsAudited('cancelada-por-duena@example.com')).toHaveLength(1);
  });

  it('a replaced link still reads as no longer usable, not as cancelled', async () => {
    const first = await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'reemplazada@example.com');
    await invite({ kind: 'staff', actor: CLI, integrationId: integration.id }, 'reemplazada@example.com');
    expect(await invitationForCode(first.code)).toEqual({ state: 'unusable' });
  });
});

describe('an invitation sent', () => {
  it('without a role is refused with what to choose', async () => {
    for (const role of [undefined, '']) {
      expect(await invitePortalUser({ kind: 'staff', actor: ADMIN, integrationId: integration.id }, { email: 'sin-rol@example.com', role }, { printer: () => {} })).toEqual({
        ok: false,
        error: { code: 'invalid', message: INVITATION_MESSAGES.role },
      });
    }
  });

  it('again is a resend, told apart from a first invitation, by staff and by an owner', async () => {
    const first = await invitePortalUser({ kind: 'staff', actor: ADMIN, integrationId: integration.id }, { email: 'reenvio@example.com', role: 'desarrollador' }, { printer: () => {} });
    expect(first).toMatchObject({ ok: true, value: { resent: false } });
    const again = await resendInvitationAsStaff(ADMIN, integration.id, first.ok ? first.value.id : 0, { printer: () => {} });
    expect(again).toMatchObject({ ok: true, value: { resent: true, email: 'reenvio@example.com' } });
    const ana = await owner('ana-reenvia@example.com', 'Ana Reenvía');
    const pending = await invite({ kind: 'owner', user: ana }, 'reenvio-duena@example.com');
    expect(await resendInvitation(ana, pending.id, { printer: () => {} })).toMatchObject({ ok: true, value: { resent: true } });
  });
});

describe('the invitation e-mail', () => {
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => {
    await smtp.close();
  });

  async function withMail<T>(run: () => Promise<T>): Promise<T> {
    const SMTP = { ALERT_SMTP_HOST: '127.0.0.1', ALERT_SMTP_PORT: String(smtp.port), ALERT_EMAIL_FROM: 'avisos@pasarela.example', SERVICE_NAME: 'Pasarela GT' };
    Object.assign(process.env, SMTP);
    resetEnvCache();
    try {
      return await run();
    } finally {
      for (const name of Object.keys(SMTP)) delete process.env[name];
      resetEnvCache();
    }
  }

  function textOf(to: string): { subject: string; text: string } {
    const mail = smtp.to(to).at(-1);
    if (!mail) throw new Error(`no e-mail to ${to}`);
    // A single text part: its body after the headers, quoted-printable as nodemailer writes accents.
    const split = mail.raw.indexOf('\r\n\r\n');
    const headers = mail.raw.slice(0, split);
    const body = mail.raw.slice(split + 4);
    return { subject: mail.subject, text: /Content-Transfer-Encoding: quoted-printable/i.test(headers) ? decodeQuotedPrintable(body) : body };
  }

  it('from an owner names the owner and the integration, in the subject and the text, speaking as usted', async () => {
    const ana = await owner('ana-invita@example.com', 'Ana López');
    await withMail(() => invitePortalUser({ kind: 'owner', user: ana }, { email: 'invitado-por-ana@example.com', role: 'facturacion' }));
    const { subject, text } = textOf('invitado-por-ana@example.com');
    expect(subject).toBe('[Pasarela GT] Ana López le invita al portal de «distribuidora-quetzal»');
    expect(text).toContain('Ana López, de «distribuidora-quetzal», le invita al portal de integradores de Pasarela GT como facturación');
    expect(text).toMatch(/^Hola:/);
    expect(text).not.toMatch(/\b(tu|tus|te|puedes|abre|elige|ignora)\b/i);
  });

  it('from an administrator names them and the service; from the CLI, the service’s team', async () => {
    await withMail(() =>
      invitePortalUser({ kind: 'staff', actor: ADMIN, integrationId: integration.id, name: 'Luis Pérez' }, { email: 'invitado-por-luis@example.com', role: 'propietario' }),
    );
    const byAdmin = textOf('invitado-por-luis@example.com');
    expect(byAdmin.subject).toBe('[Pasarela GT] Luis Pérez le invita al portal de «distribuidora-quetzal»');
    expect(byAdmin.text).toContain('Luis Pérez, del equipo de Pasarela GT, le invita al portal de integradores de Pasarela GT como propietario de la integración «distribuidora-quetzal»');

    await withMail(() => invitePortalUser({ kind: 'staff', actor: CLI, integrationId: integration.id }, { email: 'invitado-por-cli@example.com', role: 'propietario' }));
    const byCli = textOf('invitado-por-cli@example.com');
    expect(byCli.subject).toBe('[Pasarela GT] Invitación al portal de «distribuidora-quetzal»');
    expect(byCli.text).toContain('El equipo de Pasarela GT le invita al portal de integradores');
  });
});
