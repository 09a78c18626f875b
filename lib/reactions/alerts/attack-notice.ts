import { randomUUID } from 'node:crypto';
import type { AlertDelivery } from '@/db/schema';
import type { AttemptOutcome } from '@/lib/platform/http/delivery-attempt';
import { sendMail } from '@/lib/platform/mail/smtp';
import { alerts as alertDispatcher, type AlertDispatcher } from './dispatcher';
import { enqueueDeliveries } from './outbox';
import { alertSettings } from './settings';
import { env } from '@/lib/platform/settings/env';
import { logger } from '@/lib/platform/logging/logger';
import type { AuthRealm } from '@/lib/flows/auth/realm';
import { ACCOUNT_PACE } from '@/lib/flows/auth/throttle';

// Tells a console user (or a portal user, realm 'portal') by e-mail that somebody is guessing their password: once the account's
// failures in its window pass ACCOUNT_PACE.noticeAfterFailures, at most once an hour across every
// instance, through the alerts' outbox and SMTP server (ALERT_SMTP_*), with its retries and
// recorded attempts. Without an SMTP server nothing can be sent: the log says so, once an hour per
// account in each instance.

const log = logger('auth');
export const ATTACK_NOTICE_INTERVAL_SECONDS = 3_600;
const unsentWarnings = new Map<string, number>();

/** The delivery's payload (alert_deliveries.payload): what the e-mail says, without the e-mail address. */
export interface AttackNoticePayload {
  id: string;
  tipo: 'cuenta_bajo_ataque';
  fecha: string;
  servicio: string;
  entorno: string;
  usuario_id: number;
  intentos_fallidos: number;
}

/** Who is told, by realm: the delivery's audience, the key of its once-an-hour condition, the words of the mail. */
const REALMS = {
  console: { audience: 'console_user', conditionKey: 'account_under_attack', where: 'de la consola', help: 'Avise a un administrador si esto sigue: en «Auditoría» verá cada intento fallido.' },
  portal: {
    audience: 'portal_user',
    conditionKey: 'portal_account_under_attack',
    where: 'del portal de integradores',
    help: 'Avise a quien administra el servicio si esto sigue: el personal de soporte ve cada intento fallido.',
  },
} as const satisfies Record<AuthRealm, { audience: 'console_user' | 'portal_user'; conditionKey: string; where: string; help: string }>;

/** Lets the alerts' delivery loop send these e-mails (called at start-up, lib/root/startup.ts). */
export function deliverAttackNotices(alerts: AlertDispatcher): void {
  for (const realm of Object.keys(REALMS) as AuthRealm[]) alerts.deliverFor(REALMS[realm].audience, (delivery) => sendAttackNotice(delivery, realm));
}

/** Queues the e-mail unless this account was told within the hour. Never throws: a sign-in must not fail for it. */
export async function noteAccountUnderAttack(user: { id: number; email: string }, failures: number, realm: AuthRealm = 'console'): Promise<void> {
  if (failures < ACCOUNT_PACE.noticeAfterFailures) return;
  const { audience, conditionKey } = REALMS[realm];
  try {
    const settings = env();
    const email = alertSettings().email;
    const payload: AttackNoticePayload = {
      id: `avc_${randomUUID()}`,
      tipo: 'cuenta_bajo_ataque',
      fecha: new Date().toISOString(),
      servicio: settings.SERVICE_NAME,
      entorno: settings.APP_ENV,
      usuario_id: user.id,
      intentos_fallidos: failures,
    };
    if (!email) {
      // Nobody can be told: the log says so, once an hour per account in this process.
      const last = unsentWarnings.get(`${realm}:${user.id}`);
      if (last !== undefined && Date.now() - last < ATTACK_NOTICE_INTERVAL_SECONDS * 1000) return;
      unsentWarnings.set(`${realm}:${user.id}`, Date.now());
      log.warn({ realm, userId: user.id, failures }, `a ${realm} account is under a password-guessing attack and no SMTP server (ALERT_SMTP_HOST) can tell its user`);
      return;
    }
    const rows = await enqueueDeliveries(`${conditionKey}:${user.id}`, ATTACK_NOTICE_INTERVAL_SECONDS, async () => [
      { alertId: payload.id, condition: 'account_under_attack', channel: 'email', audience, target: user.email, payload: JSON.stringify(payload) },
    ]);
    if (rows.length === 0) return;
    // The process's dispatcher (kept on globalThis): a route's copy of this module is not the start-up's.
    alertDispatcher().wakeNow();
    log.warn({ realm, userId: user.id, failures }, `a ${realm} account is under a password-guessing attack: its user is told by e-mail`);
  } catch (error) {
    log.error({ err: error, userId: user.id }, 'could not queue the e-mail about a password-guessing attack');
  }
}

export function attackNoticeMail(payload: AttackNoticePayload, to: string, realm: AuthRealm = 'console'): { to: string[]; subject: string; text: string; headers: Record<string, string> } {
  const { where, help } = REALMS[realm];
  const when = new Date(payload.fecha).toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'long', timeStyle: 'short' });
  return {
    to: [to],
    subject: `[${payload.servicio}] Intentos fallidos de inicio de sesión en su cuenta`,
    text: [
      `Hasta el ${when} (hora de Guatemala) hubo ${payload.intentos_fallidos} intentos fallidos de iniciar sesión en su cuenta ${where} (${to}), desde navegadores en los que usted no había iniciado sesión.`,
      '',
      'Si no fue usted, alguien está intentando adivinar su contraseña. Su cuenta no se bloquea: desde los navegadores donde ya inició sesión entra como siempre. Desde otros, se admite un intento a la vez, hasta uno por minuto, mientras sigan los intentos.',
      '',
      'Qué hacer:',
      '- Si su contraseña es corta, la usa en otro sitio o alguien más la conoce, cámbiela en «Mi cuenta».',
      '- Active la verificación en dos pasos en «Mi cuenta», si aún no la tiene.',
      `- ${help}`,
      '',
      `No recibirá otro aviso como este durante una hora. Entorno: ${payload.entorno}. Aviso: ${payload.id}.`,
    ].join('\n'),
    headers: { 'X-Aviso-Id': payload.id },
  };
}

async function sendAttackNotice(delivery: AlertDelivery, realm: AuthRealm): Promise<AttemptOutcome> {
  const email = alertSettings().email;
  if (!email) return { ok: false, responseStatus: null, error: 'el correo (ALERT_SMTP_HOST) ya no está configurado en esta instancia' };
  return sendMail(email, attackNoticeMail(JSON.parse(delivery.payload) as AttackNoticePayload, delivery.target, realm));
}
