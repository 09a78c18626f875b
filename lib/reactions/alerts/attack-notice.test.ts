import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, db } from '@/db/client';
import { alertDeliveries } from '@/db/schema';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { attackNoticeMail, noteAccountUnderAttack, type AttackNoticePayload } from './attack-notice';

let testDatabase: TestDatabase;
const SMTP = { ALERT_SMTP_HOST: '127.0.0.1', ALERT_SMTP_PORT: '2525', ALERT_EMAIL_FROM: 'avisos@pasarela.example' };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
});
afterAll(async () => {
  for (const name of Object.keys(SMTP)) delete process.env[name];
  resetEnvCache();
  await testDatabase.cleanup();
});

async function noticesTo(email: string): Promise<AttackNoticePayload[]> {
  const rows = await (await db()).select().from(alertDeliveries).where(eq(alertDeliveries.target, email));
  return rows.map((row) => {
    expect(row).toMatchObject({ audience: 'console_user', condition: 'account_under_attack', channel: 'email', recipient: null, integrationId: null });
    return JSON.parse(row.payload) as AttackNoticePayload;
  });
}

describe('the e-mail to a user whose password is being guessed', () => {
  it('is queued once an hour from the 20th failure, across every call', async () => {
    Object.assign(process.env, SMTP);
    resetEnvCache();
    const user = { id: 7, email: 'guardia@example.com' };
    await noteAccountUnderAttack(user, 19);
    expect(await noticesTo(user.email)).toEqual([]);
    await Promise.all([noteAccountUnderAttack(user, 20), noteAccountUnderAttack(user, 21), noteAccountUnderAttack(user, 22)]);
    const [notice, ...more] = await noticesTo(user.email);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({ tipo: 'cuenta_bajo_ataque', usuario_id: 7 });
    // An hour later the user is told again.
    await (await database()).rows(sql`update alert_conditions set last_sent_at = now() - interval '61 minutes' where key = 'account_under_attack:7'`);
    await noteAccountUnderAttack(user, 80);
    expect((await noticesTo(user.email)).map((queued) => queued.intentos_fallidos).sort((a, b) => a - b)).toEqual([notice!.intentos_fallidos, 80]);
  });

  it('without an SMTP server queues nothing', async () => {
    for (const name of Object.keys(SMTP)) delete process.env[name];
    resetEnvCache();
    await noteAccountUnderAttack({ id: 8, email: 'sin-correo@example.com' }, 40);
    expect(await noticesTo('sin-correo@example.com')).toEqual([]);
  });

  it('says what happened, that the account is not locked, and what to do, without the password or an address', () => {
    const mail = attackNoticeMail(
      { id: 'avc_1', tipo: 'cuenta_bajo_ataque', fecha: '2026-11-25T16:00:00.000Z', servicio: 'Pasarela', entorno: 'production', usuario_id: 7, intentos_fallidos: 26 },
      'guardia@example.com',
    );
    expect(mail.to).toEqual(['guardia@example.com']);
    expect(mail.subject).toBe('[Pasarela] Intentos fallidos de inicio de sesión en su cuenta');
    expect(mail.text).toContain('Hasta el 25 de noviembre de 2026 a las 10:00 a. m. (hora de Guatemala) hubo 26 intentos fallidos');
    expect(mail.text).toContain('Su cuenta no se bloquea');
    expect(mail.text).toContain('cámbiela en «Mi cuenta»');
  });
});
