// The integrators' portal: people invited, a password reset handed over, a second factor taken away.
import { findPortalAccountByEmail } from '@/lib/flows/portal-identity/accounts';
import { invitePortalUser } from '@/lib/flows/portal-identity/invitations';
import { handOverPortalPasswordReset } from '@/lib/flows/portal-identity/passwords';
import { isPortalRole, PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/flows/portal-identity/roles';
import { portalTwoFactorService } from '@/lib/flows/portal-identity/two-factor';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { alternatives, integrationByArg, required } from './arguments';
import { CLI_ACTOR, unwrap, type Commands, type Options } from './command';
import { counted, when } from './describe';

/** What a refusal for want of mail adds in the CLI: the way to hand the link over instead. */
const HAND_OVER_HINT =
  'Sin correo, puede entregar el enlace una vez usted mismo: repita la orden con --link --reason "quién lo pidió y por qué" (queda en la auditoría, el enlace no).';

/** --link's required reason (--reason, or --motivo as the other commands call it). */
function handOverReason(options: Options): string {
  const reason = options.reason ?? options.motivo;
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new CliError('--link exige un motivo: agregue --reason "quién lo pidió y por qué" (queda en la auditoría con quién y cuándo; el enlace no)');
  }
  return reason;
}

export const portalCommands: Commands = {
  'portal:invite': {
    usage: {
      args: ['--integration id|nombre --email correo [--role propietario|desarrollador|facturacion]'],
      description: [
        'invita a una persona de la integración al portal de integradores (/portal),',
        'como propietario si no se indica otro rol: le llega por correo',
        '(ALERT_SMTP_HOST) un enlace de un solo uso que vence en 72 horas; en',
        'desarrollo sin servidor de correo, el enlace es la respuesta de esta orden',
      ],
      more: {
        args: ['[--link --reason "quién lo pidió y por qué"]'],
        description: [
          '--link: no envía correo, responde con el enlace para que usted lo entregue',
          '(también en producción); el motivo queda en la auditoría, el enlace no',
        ],
      },
    },
    async run(_args, options) {
      if (typeof options.integration !== 'string') throw new CliError('falta --integration (el id o el nombre de la integración)');
      if (typeof options.email !== 'string') throw new CliError('falta --email (el correo de la persona)');
      const role = options.role ?? 'propietario';
      if (!isPortalRole(role)) throw new CliError(`--role es ${alternatives([...PORTAL_ROLES])}; se recibió «${safe(String(role))}»`);
      const handOver = options.link === true ? { reason: handOverReason(options) } : undefined;
      const integration = await integrationByArg([options.integration]);
      // The link is this command's answer: development without an SMTP server (the operator is the
      // developer), or --link (the operator hands it over, the reason audited).
      let link: string | undefined;
      const result = await invitePortalUser(
        { kind: 'staff', actor: CLI_ACTOR, integrationId: integration.id },
        { email: options.email, role },
        { printer: (_line, printed) => (link = printed), handOver },
      );
      if (!result.ok && result.error.code === 'no_mail') throw new CliError(`${safe(result.error.message)}\n${HAND_OVER_HINT}`);
      const sent = unwrap(result);
      return {
        data: { id: sent.id, integration: sent.integrationName, email: sent.email, role: sent.role, expiresAt: sent.expiresAt, delivery: sent.delivery, ...(link ? { link } : {}) },
        text:
          `Invitación al portal para ${safe(sent.email)} como ${PORTAL_ROLE_LABELS[sent.role].toLowerCase()} de «${safe(sent.integrationName)}»; vence el ${when(sent.expiresAt)}.\n` +
          (sent.delivery === 'email'
            ? 'Se envió por correo (ALERT_SMTP_HOST).'
            : sent.delivery === 'handed_over'
              ? `No se envió correo: entregue este enlace a esa persona por un medio seguro; sirve una sola vez. La auditoría guarda quién, cuándo y el motivo, no el enlace:\n${link ?? ''}`
              : `Sin servidor de correo (entorno de desarrollo), este es el enlace; sirve una sola vez:\n${link ?? ''}`),
      };
    },
  },
  'portal:reset-password': {
    usage: {
      args: ['<correo> --link --reason "quién lo pidió y por qué"'],
      description: [
        'responde con un enlace de un solo uso (vence en 60 minutos) para que la',
        'persona elija una contraseña nueva, sin correo; el motivo queda en la',
        'auditoría, el enlace no',
      ],
    },
    async run(args, options) {
      const email = required(args, 0, 'el correo de la persona');
      if (options.link !== true) throw new CliError('portal:reset-password entrega el enlace sin correo: agregue --link --reason "quién lo pidió y por qué" (por correo, la persona lo pide en «¿Olvidó su contraseña?»)');
      const reset = unwrap(await handOverPortalPasswordReset(CLI_ACTOR, email, handOverReason(options)));
      return {
        data: { userId: reset.userId, integration: reset.integrationName, email: reset.email, expiresAt: reset.expiresAt, link: reset.link },
        text:
          `Enlace para restablecer la contraseña del portal de ${safe(reset.email)} («${safe(reset.integrationName)}»); vence el ${when(reset.expiresAt)}.\n` +
          `No se envió correo: entregue este enlace a esa persona por un medio seguro; sirve una sola vez. La auditoría guarda quién, cuándo y el motivo, no el enlace:\n${reset.link}`,
      };
    },
  },
  'portal:reset-two-factor': {
    usage: {
      args: ['<correo>'],
      description: [
        'quita el segundo factor de una persona del portal (perdió el teléfono y',
        'los códigos, y no hay otro propietario que la quite e invite de nuevo);',
        'sus sesiones terminan',
      ],
    },
    async run(args) {
      const email = required(args, 0, 'el correo de la persona');
      const account = await findPortalAccountByEmail(email);
      if (!account) throw new CliError(`no hay una cuenta del portal con el correo ${safe(email)}`, 3);
      const reset = unwrap(await portalTwoFactorService.resetTwoFactor(CLI_ACTOR, account.id));
      return {
        data: { userId: account.id, integration: account.integrationName, sessionsEnded: reset.sessionsEnded },
        text:
          `Se quitó la verificación en dos pasos del portal de ${safe(account.email)} («${safe(account.integrationName)}»); ` +
          `${counted(reset.sessionsEnded, 'sesión terminada', 'sesiones terminadas')}. Al volver a entrar la activa de nuevo si su rol la exige.`,
      };
    },
  },
};
