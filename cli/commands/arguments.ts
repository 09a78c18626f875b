// Reading what the operator typed: arguments, amounts, names the console shows, integrations.
import { CONTRACT_FLAG_NAMES, FLAG_NAMES, parseFlagName, type FlagName } from '@/lib/core/integrations/flags';
import { findIntegration, type IntegrationView } from '@/lib/flows/integration-management/service';
import { parseQuetzales } from '@/lib/platform/money';
import { CliError, MissingArgument } from '../errors';
import { terminalSafe as safe } from '../terminal-text';

export function required(args: string[], index: number, what: string): string {
  const value = args[index];
  if (!value) throw new MissingArgument(`falta ${what}`);
  return value;
}

/** "a, b o c" (or "u" before a word that starts with the sound o: "rtu u omisos"). */
export function alternatives(names: string[]): string {
  const last = names.at(-1)!;
  if (names.length === 1) return last;
  return `${names.slice(0, -1).join(', ')} ${/^h?o/i.test(last) ? 'u' : 'o'} ${last}`;
}

/** Lowercase and without accents: "Catálogo CUI/NIT", "catalogo cui/nit" and "CATÁLOGO CUI/NIT" are one name. */
function comparable(text: string): string {
  return text.trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * What an option's value names: a value the console shows by `labels` (a lookup, a kind of
 * movement) is typed by its console name or by its internal one, in any case.
 */
export function namedValue<K extends string>(typed: string, labels: Record<K, string>): K | undefined {
  const wanted = comparable(typed);
  return (Object.keys(labels) as K[]).find((key) => comparable(key) === wanted || comparable(labels[key]) === wanted);
}

/** The names an option takes, the console's first: `shown` writes a label as a sentence says it. */
export function acceptedNames<K extends string>(labels: Record<K, string>, shown: (label: string) => string = (label) => label): string {
  const quoted = (name: string) => (name.includes(' ') ? `"${name}"` : name);
  const keys = Object.keys(labels) as K[];
  return `${alternatives(keys.map((key) => quoted(shown(labels[key]))))} (también ${alternatives(keys)})`;
}

/** The CLI's entry point rewrites "-25" to this mark plus "25" so the argument parser keeps it. */
export const NEGATIVE_AMOUNT_MARK = 'negative:';

/** `what` names the amount in a sentence: "la tarifa", "el saldo inicial (--balance)". */
export function amount(text: string, what: string): number {
  const centavos = signedAmount(text);
  if (centavos === undefined) throw new CliError(`${what} se escribe en quetzales, como 12.50 (se recibió «${safe(typedAmount(text))}»)`);
  return centavos;
}

/** The amount as the operator typed it (the entry point marks a leading minus). */
export function typedAmount(text: string): string {
  return text.startsWith(NEGATIVE_AMOUNT_MARK) ? `-${text.slice(NEGATIVE_AMOUNT_MARK.length)}` : text;
}

export function signedAmount(text: string): number | undefined {
  return text.startsWith(NEGATIVE_AMOUNT_MARK) ? negate(parseQuetzales(text.slice(NEGATIVE_AMOUNT_MARK.length))) : parseQuetzales(text);
}

function negate(value: number | undefined): number | undefined {
  return value === undefined ? undefined : -value;
}

export function parseFlagList(list: string | boolean | undefined): FlagName[] {
  if (typeof list !== 'string' || list.trim() === '') return [];
  if (list.trim() === 'all') return FLAG_NAMES;
  return list.split(',').map((item) => {
    const flag = parseFlagName(item);
    if (!flag) throw new CliError(`no existe la consulta «${safe(item)}»; use una de ${Object.values(CONTRACT_FLAG_NAMES).join(', ')} (o all)`);
    return flag;
  });
}

export async function integrationByArg(args: string[]): Promise<IntegrationView> {
  const key = required(args, 0, 'la integración (su id o su nombre)');
  const integration = await findIntegration(key);
  if (!integration) throw new CliError(`no existe la integración «${safe(key)}»`, 3);
  return integration;
}
