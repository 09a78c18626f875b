// The console's users: created, listed, and their second factor taken away.
import { twoFactorRequired } from '@/lib/flows/auth/two-factor-policy';
import { createConsoleUser, findConsoleUserByEmail, listConsoleUsers, userRoleSchema, type ConsoleUserView } from '@/lib/flows/auth/users';
import { resetTwoFactor, usersWithTwoFactor } from '@/lib/flows/two-factor/service';
import { ROLE_LABELS, TWO_FACTOR_LABELS, USER_STATE_LABELS } from '@/lib/presentation/labels';
import { CliError } from '../errors';
import { readPassword } from '../password-input';
import { terminalSafe as safe } from '../terminal-text';
import { required } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { counted, lowercaseFirst } from './describe';

/** "#3 ana@example.com  Ana  Soporte  Activo  verificación en dos pasos: No activada": the Usuarios page's columns. */
function describeUser(user: ConsoleUserView, twoFactor: boolean): string {
  const secondFactor = twoFactor
    ? TWO_FACTOR_LABELS.enrolled
    : `${TWO_FACTOR_LABELS.notEnrolled}${twoFactorRequired() ? ` (${lowercaseFirst(TWO_FACTOR_LABELS.enrolsAtSignIn)})` : ''}`;
  return (
    `#${user.id} ${safe(user.email)}  ${safe(user.name)}  ${ROLE_LABELS[user.role]}  ${user.active ? USER_STATE_LABELS.active : USER_STATE_LABELS.disabled}` +
    `  verificación en dos pasos: ${secondFactor}${user.mustChangePassword ? '  debe cambiar su contraseña al entrar' : ''}`
  );
}

export const userCommands: Commands = {
  'users:create': {
    usage: {
      args: ['<correo> --name "..." --role admin|support [--password-stdin]'],
      description: [
        'crea un usuario de la consola; muestra una sola vez una contraseña',
        'generada, o se la pide (--password-stdin: escrita sin que se',
        'vea, o la primera línea de la entrada estándar si llega por una tubería)',
      ],
    },
    async run(args, options) {
      if (options.password !== undefined) {
        throw new CliError('no se acepta --password: una contraseña en la línea de órdenes queda en el historial de la terminal y en la lista de procesos. Use --password-stdin.');
      }
      const role = userRoleSchema.safeParse(options.role);
      if (!role.success) throw new CliError('--role es admin (administrador) o support (soporte)');
      const chosenPassword = options['password-stdin'] === true ? await readPassword() : undefined;
      const created = unwrap(
        await createConsoleUser(CLI_ACTOR, {
          email: required(args, 0, 'el correo del usuario'),
          name: typeof options.name === 'string' ? options.name : '',
          role: role.data,
          password: chosenPassword,
        }),
      );
      const shownPassword = chosenPassword === undefined ? created.password : undefined;
      return {
        data: { ...created.user, ...(shownPassword ? { password: shownPassword } : {}) },
        text:
          `Usuario #${created.user.id} ${safe(created.user.email)} (${ROLE_LABELS[created.user.role]})` +
          `${shownPassword ? `\nContraseña (se muestra una sola vez): ${shownPassword}` : ''}` +
          '\nAl entrar por primera vez, la consola pide al usuario que elija su propia contraseña.',
      };
    },
  },
  'users:list': {
    usage: {
      args: [],
      description: [
        'los usuarios de la consola, con su rol, su estado (activo o desactivado)',
        'y su verificación en dos pasos (activada o no)',
      ],
    },
    async run() {
      const [users, enrolled] = await Promise.all([listConsoleUsers(), usersWithTwoFactor()]);
      return {
        data: users.map((user) => ({ ...user, twoFactor: enrolled.has(user.id) })),
        text: users.map((user) => describeUser(user, enrolled.has(user.id))).join('\n') || 'No hay usuarios.',
      };
    },
  },
  'users:reset-two-factor': {
    usage: {
      args: ['<correo>'],
      description: [
        'quita el segundo factor de un usuario (perdió el teléfono y los códigos',
        'de recuperación); sus sesiones terminan y se inscribe de nuevo al entrar',
      ],
    },
    async run(args) {
      const email = required(args, 0, 'el correo del usuario');
      const user = await findConsoleUserByEmail(email.trim().toLowerCase());
      if (!user) throw new CliError(`no hay un usuario de la consola con el correo ${safe(email)}`, 3);
      const reset = unwrap(await resetTwoFactor(CLI_ACTOR, user.id));
      return {
        data: { userId: user.id, sessionsEnded: reset.sessionsEnded },
        text:
          `Se quitó la verificación en dos pasos de ${safe(user.email)}; ${counted(reset.sessionsEnded, 'sesión terminada', 'sesiones terminadas')}. ` +
          `Al volver a entrar se inscribe de nuevo${user.role === 'admin' ? ' (obligatorio para administradores en producción)' : ''}.`,
      };
    },
  },
};
