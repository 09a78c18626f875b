// The CLI's help, in Spanish as the console is (its operators are Guatemalan). Command names and
// option flags stay in English: scripts and the documentation call them by these names. Each command
// declares its own lines (cli/commands/<capability>.ts); this module says what is common to all and
// lays the lines out.
import type { Command, Usage, UsageLines } from './commands/command';

const INTRODUCTION = `CLI de operación: npm run cli -- <comando> [argumentos] [--json]

Los montos se escriben en quetzales ("12.50", "1,000", "Q 5"), como en la consola; se guardan en centavos.
Consultas que se habilitan (--enable, --disable): is_renap_enabled is_rtu_enabled is_cui_nit_enabled
is_rtu_v2_enabled is_omisos_enabled (o "all", todas).
Las fechas y horas del texto son de Guatemala, como en la consola (24/11/2026 04:02:09); con --json, la respuesta
es JSON y sus fechas, UTC (ISO 8601). Las consultas y los movimientos se escriben con el nombre de la consola
("Catálogo CUI/NIT", recarga) o con el interno (cui_nit, top_up), en mayúsculas o minúsculas.`;

const CLOSING_NOTES = `Cada orden que cambia algo admite --envio CLAVE (hasta 100 letras, números, «.», «_», «:» o «-»): con la
misma CLAVE, repetida en cualquier máquina en las siguientes 24 horas, no vuelve a hacer el cambio y
muestra el resultado de la primera vez (repetir una recarga que no respondió no la acredita dos veces).

Códigos de salida: 0 terminó bien (también una orden con --envio que ya se había hecho); 1 ledger:verify o books:verify encontró diferencias,
top-ups:duplicates encontró solicitudes que comparten referencia, o un error inesperado;
2 orden, opción o dato no válido, o cambio rechazado; 3 no existe la integración, el usuario o el
token indicado.
CLI_LOG_LEVEL=info (o warn, error…) escribe además el registro estructurado (JSON) en stderr.`;

/** Where what a command does starts, when its arguments leave room for it on their line. */
const DESCRIPTION_COLUMN = 40;
/** A further line of a command's options, beneath its name. */
const FURTHER_ARGS_INDENT = ' '.repeat(15);

/** The help: the introduction, each command's lines in the order given, and the notes on all of them. */
export function usageText(commands: Record<string, Command>): string {
  const entries = Object.entries(commands).flatMap(([name, command]) => entryLines(name, command.usage));
  return [INTRODUCTION, '', ...entries, '', CLOSING_NOTES].join('\n');
}

function entryLines(name: string, usage: Usage): string[] {
  const [firstArgs, ...furtherArgs] = usage.args;
  const named = firstArgs === undefined ? `  ${name}` : `  ${name} ${firstArgs}`;
  const lines = described([named, ...furtherArgs.map(furtherLine)], usage.description);
  return usage.more ? [...lines, ...described(usage.more.args.map(furtherLine), usage.more.description)] : lines;
}

function furtherLine(args: string): string {
  return FURTHER_ARGS_INDENT + args;
}

/** The description starts beside the last line of arguments if it fits there, two spaces apart at least; beneath it if not. */
function described(argLines: string[], description: UsageLines['description']): string[] {
  const column = ' '.repeat(DESCRIPTION_COLUMN);
  const last = argLines.at(-1)!;
  if (last.length + 2 > DESCRIPTION_COLUMN) return [...argLines, ...description.map((line) => column + line)];
  const [first, ...rest] = description;
  return [...argLines.slice(0, -1), last.padEnd(DESCRIPTION_COLUMN) + first, ...rest.map((line) => column + line)];
}
