import { configuredEmail, sendMail, type Mail } from '@/lib/platform/mail/smtp';
import { env } from '@/lib/platform/settings/env';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { logger } from '@/lib/platform/logging/logger';
import { PORTAL_ROLE_LABELS } from './roles';
import type { PortalRole } from '@/db/schema';

// The portal's e-mails (an invitation, a password reset) go through the SMTP server the alerts use
// (ALERT_SMTP_*), sent at once rather than through the alerts' outbox: the outbox keeps each
// message's text in the database until it is sent, and these carry a link that opens an account,
// which is kept nowhere but in the e-mail. A failure is answered to whoever asked (an invitation
// that could not be sent is withdrawn). Without an SMTP server, development prints the link on the
// app's terminal, as the first start prints the admin's password; production cannot send them.

export type LinkDelivery = { ok: true; via: 'email' | 'terminal' } | { ok: false; reason: 'not_configured' | 'failed'; error?: string };

/** Where a link goes when no e-mail can carry it (development): the app's terminal, or the CLI's answer. */
export type LinkPrinter = (line: string, link: string) => void;

export const printOnTerminal: LinkPrinter = (line) => {
  // Development only, and on purpose: a link printed once to the developer's terminal, not as a log
  // line (the logger would mask it), as the development seed prints its credentials.
  process.stdout.write(`\n${line}\n\n`);
};

/** Whether the portal can send its links: an SMTP server, or development's terminal. */
export function portalMailAvailable(): boolean {
  return configuredEmail() !== undefined || env().APP_ENV === 'development';
}

async function deliver(mail: Mail, terminalLine: string, link: string, printer: LinkPrinter): Promise<LinkDelivery> {
  const email = configuredEmail();
  if (email) {
    const outcome = await sendMail(email, mail);
    if (outcome.ok) return { ok: true, via: 'email' };
    logger('portal').warn({ smtpError: outcome.error, responseStatus: outcome.responseStatus }, 'a portal e-mail could not be sent');
    return { ok: false, reason: 'failed', error: outcome.error ?? undefined };
  }
  if (env().APP_ENV !== 'development') return { ok: false, reason: 'not_configured' };
  printer(terminalLine, link);
  return { ok: true, via: 'terminal' };
}

export interface InvitationMail {
  to: string;
  link: string;
  integrationName: string;
  role: PortalRole;
  expiresAt: Date;
  /**
   * Who invited: an owner of the integration, or the service's staff (an administrator by name, or
   * unnamed from the CLI). The person reads who asked them in, and from which company, before
   * trusting a link.
   */
  invitedBy: { kind: 'owner' | 'staff'; name?: string };
}

/** "Ana López, de «Acme»" or "Luis Pérez, del equipo de Pasarela": the inviter as the e-mail names them. */
function inviterText(invitation: InvitationMail, serviceName: string): string {
  const { kind, name } = invitation.invitedBy;
  if (kind === 'owner') return `${name}, de «${invitation.integrationName}»,`;
  return name ? `${name}, del equipo de ${serviceName},` : `El equipo de ${serviceName}`;
}

export function invitationMail(invitation: InvitationMail): Mail {
  const settings = env();
  const sandbox = settings.APP_ENV === 'development';
  const text = [
    'Hola:',
    '',
    `${inviterText(invitation, settings.SERVICE_NAME)} le invita al portal de integradores de ${settings.SERVICE_NAME} como ${PORTAL_ROLE_LABELS[invitation.role].toLowerCase()} de la integración «${invitation.integrationName}».`,
    ...(sandbox ? ['Es el entorno de pruebas (sandbox): las consultas van a un simulador, no a las fuentes reales.'] : []),
    '',
    'Para aceptar, abra este enlace y elija su contraseña:',
    invitation.link,
    '',
    `El enlace sirve una sola vez y vence el ${formatDateTime(invitation.expiresAt)} (hora de Guatemala). Si no esperaba esta invitación, ignore este correo.`,
  ].join('\n');
  const from = invitation.invitedBy.name ? `${invitation.invitedBy.name} le invita` : 'Invitación';
  return { to: [invitation.to], subject: `[${settings.SERVICE_NAME}] ${from} al portal de «${invitation.integrationName}»`, text };
}

export function sendInvitation(invitation: InvitationMail, printer: LinkPrinter = printOnTerminal): Promise<LinkDelivery> {
  return deliver(invitationMail(invitation), `Invitación al portal para ${invitation.to} (${invitation.integrationName}, ${PORTAL_ROLE_LABELS[invitation.role]}): ${invitation.link}`, invitation.link, printer);
}

export interface ResetMail {
  to: string;
  link: string;
  expiresAt: Date;
}

export function passwordResetMail(reset: ResetMail): Mail {
  const settings = env();
  const text = [
    'Hola:',
    '',
    `Alguien pidió restablecer la contraseña de su cuenta del portal de integradores de ${settings.SERVICE_NAME} (${reset.to}).`,
    '',
    'Para elegir una contraseña nueva, abra este enlace:',
    reset.link,
    '',
    `El enlace sirve una sola vez y vence el ${formatDateTime(reset.expiresAt)} (hora de Guatemala). Si no lo pidió usted, ignore este correo: su contraseña no cambia.`,
  ].join('\n');
  return { to: [reset.to], subject: `[${settings.SERVICE_NAME}] Restablecer la contraseña del portal`, text };
}

export function sendPasswordReset(reset: ResetMail, printer: LinkPrinter = printOnTerminal): Promise<LinkDelivery> {
  return deliver(passwordResetMail(reset), `Restablecer la contraseña del portal de ${reset.to}: ${reset.link}`, reset.link, printer);
}
