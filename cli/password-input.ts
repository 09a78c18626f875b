import { read } from 'read';
import { CliError } from './errors';

/**
 * A password for `users:create --password-stdin`, never from the command line: typed at a prompt
 * that does not echo it (twice, to catch a typo) when standard input is a terminal, else the first
 * line of what is piped in (`printf '%s\n' "$PASSWORD" | npm run cli -- users:create …`).
 */
export async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const password = await read({ prompt: 'Contraseña: ', silent: true, replace: '', output: process.stderr });
    const again = await read({ prompt: 'Repita la contraseña: ', silent: true, replace: '', output: process.stderr });
    if (password !== again) throw new CliError('las dos contraseñas no coinciden');
    return password;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const firstLine = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  if (!firstLine) throw new CliError('--password-stdin: la entrada estándar no traía ninguna contraseña');
  return firstLine;
}
