import fs from 'node:fs';
import path from 'node:path';
import type { MatchExtended, ZxcvbnFactory } from '@zxcvbn-ts/core';
import { env } from '@/lib/platform/settings/env';
import { issuerSettings } from '@/lib/core/issuer/settings';
import { MIN_PASSWORD_LENGTH } from '@/lib/platform/security/passwords';

/**
 * The list of common passwords the console refuses (scripts/write-common-passwords.ts writes it
 * from a public breach-frequency list). Read from the working directory the app, the CLI and the
 * tests all run in (the repository's root), once per process; a missing list fails the first
 * password check instead of letting every password through.
 */
const COMMON_PASSWORDS_FILE = path.join(process.cwd(), 'lib', 'flows', 'passwords', 'common-passwords.txt');

let commonPasswords: ReadonlySet<string> | undefined;

function loadCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    fs
      .readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
  return commonPasswords;
}

/** What a new password is told when it is refused (the console's forms and the CLI show it). */
export const PASSWORD_RULE_MESSAGES = {
  tooShort: `La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`,
  common: 'Esa contraseña es de las más usadas y se adivina en segundos: elija otra, por ejemplo una frase de varias palabras.',
} as const;

const GUESSABLE = 'Esa contraseña se adivina con facilidad';
const ADVICE = 'Elija otra, por ejemplo una frase de varias palabras que no tenga que ver con usted ni con el servicio.';

/** Why zxcvbn found a password guessable, by the kind of its weakest part, in the console's words. */
export const GUESSABLE_BECAUSE = {
  personal: 'lleva su correo, su nombre o el nombre del servicio',
  identifier: 'lleva un NIT o un CUI que el servicio conoce (el de su empresa o el del servicio)',
  repeat: 'repite los mismos caracteres',
  sequence: 'es una secuencia (abcd, 1234)',
  spatial: 'sigue una fila o un trazo del teclado (qwerty, asdf)',
  date: 'se basa en una fecha o un año',
  words: 'se arma con palabras o nombres muy comunes',
  short: 'es demasiado simple',
  serviceWords: 'se arma solo con el nombre del servicio o sus palabras (pasarela, consultas, clave, NIT…), cifras y símbolos',
  dateWords: 'se arma solo con un mes, un día de la semana o un año, cifras y símbolos',
} as const;

/** The refusal for a guessable password, saying why. */
export function guessablePasswordMessage(reason: keyof typeof GUESSABLE_BECAUSE): string {
  return `${GUESSABLE}: ${GUESSABLE_BECAUSE[reason]}. ${ADVICE}`;
}

/**
 * The service's own words, which an attacker tries first against this console (and which a person
 * choosing a password here reaches for): the country, the product, the sources and identifiers,
 * and what the console and the portal call things. The configured service name and the operator's
 * legal name are added to these (serviceWords).
 */
const SERVICE_WORDS = [
  ...['guatemala', 'guate', 'consultas', 'consulta', 'consultasgt', 'contribuyente', 'contribuyentes', 'sat', 'renap', 'rtu', 'nit', 'cui', 'omisos', 'catalogos'],
  ...['integracion', 'integraciones', 'integrador', 'integradores', 'gateway', 'pasarela', 'admin', 'soporte', 'consola', 'portal'],
  ...['clave', 'claves', 'contraseña', 'contrasena', 'password', 'recarga', 'recargas', 'saldo', 'lote', 'lotes'],
];

/** Months and days of the week, with and without their accents: the date people put in a password. */
const DATE_WORDS = [
  ...['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'setiembre', 'octubre', 'noviembre', 'diciembre'],
  ...['lunes', 'martes', 'miércoles', 'miercoles', 'jueves', 'viernes', 'sábado', 'sabado', 'domingo'],
];

/** The words that join the others in such a password ("MiClave2026", "lunes 12 de enero") and add nothing. */
const JOINING_WORDS = ['mi', 'mis', 'tu', 'tus', 'su', 'sus', 'el', 'la', 'los', 'las', 'lo', 'de', 'del', 'al', 'en', 'y', 'nueva', 'nuevo', 'my'];

/** The years around this one (five either side): the year a password is chosen in, and its neighbours. */
function recentYears(now: Date): string[] {
  const year = now.getFullYear();
  return Array.from({ length: 11 }, (_, index) => String(year - 5 + index));
}

/** Lower case without accents: "Miércoles" and "MIERCOLES" are the same word to an attacker. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A text's words of three letters or more, folded. */
function wordsOf(text: string): string[] {
  return folded(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3);
}

let serviceWordList: string[] | undefined;

/** SERVICE_WORDS with the words of the configured service name and of the operator (its legal name and NIT). */
function serviceWords(): string[] {
  if (!serviceWordList) {
    const settings = issuerSettings();
    const named = [env().SERVICE_NAME, settings.ISSUER_LEGAL_NAME ?? ''];
    serviceWordList = [
      ...new Set([
        ...SERVICE_WORDS,
        ...named.flatMap(wordsOf),
        ...named.map((name) => wordsOf(name).join('')).filter(Boolean),
        ...(settings.ISSUER_NIT ? [settings.ISSUER_NIT.toLowerCase()] : []),
      ]),
    ];
  }
  return serviceWordList;
}

/** zxcvbn's lowest accepted score (0 to 4): 3 is "safely unguessable: moderate protection from an offline attack". */
const MIN_SCORE = 3;

/** The name of the dictionary of months, days and recent years zxcvbn is given (reasonOf reads it). */
const DATES_DICTIONARY = 'fechas';

let estimator: { factory: ZxcvbnFactory; year: number } | undefined;

/**
 * zxcvbn with the common dictionaries and the dates, rebuilt when the year changes (its recent years
 * move). Loaded the first time a password is judged: its dictionaries hold some 3 MiB of heap that an
 * instance answering lookups never uses (docs/performance.md, "What an instance's memory is made of").
 */
async function passwordEstimator(now = new Date()): Promise<ZxcvbnFactory> {
  if (estimator?.year !== now.getFullYear()) {
    const [{ ZxcvbnFactory: Factory }, { adjacencyGraphs, dictionary }] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
    const dates = [...DATE_WORDS, ...recentYears(now)];
    estimator = { factory: new Factory({ dictionary: { ...dictionary, [DATES_DICTIONARY]: dates }, graphs: adjacencyGraphs }), year: now.getFullYear() };
  }
  return estimator.factory;
}

/** Who the password is for: their e-mail and name are the first guesses of someone who knows them. */
export interface PasswordOwner {
  email?: string;
  name?: string;
  /**
   * NITs and CUIs the service holds in this person's context (their integration's billing NIT or
   * CUI); the operator's own NITs (statements' and invoices' issuer) are added for everyone.
   */
  identifiers?: ReadonlyArray<string | null | undefined>;
}

/** The shortest identifier body looked for: a NIT's number has at least this many digits. */
const MIN_IDENTIFIER_DIGITS = 5;

/** An identifier as it is looked for in a password: its digits, and its check character (a digit or K). */
function identifierBodies(identifier: string): string[] {
  const compact = identifier.toUpperCase().replace(/[^0-9K]/g, '');
  if (compact.length < MIN_IDENTIFIER_DIGITS) return [];
  // A CUI is looked for whole; a NIT with and without its check character (576937K, 576937).
  if (/^\d{13}$/.test(compact)) return [compact];
  const withoutCheck = compact.slice(0, -1);
  return withoutCheck.length >= MIN_IDENTIFIER_DIGITS && /^\d+$/.test(withoutCheck) ? [compact, withoutCheck] : [compact];
}

/**
 * Whether the password carries a NIT or CUI the service knows for this person, however written
 * (576937-K.2026, 576937k, 5 7 6 9 3 7): compared on the password's digits and K alone.
 */
function carriesKnownIdentifier(password: string, owner: PasswordOwner): boolean {
  const known = [issuerSettings().ISSUER_NIT, ...(owner.identifiers ?? [])].filter((identifier): identifier is string => Boolean(identifier));
  const compact = password.toUpperCase().replace(/[^0-9K]/g, '');
  return known.flatMap(identifierBodies).some((body) => compact.includes(body));
}

function personalWords(owner: PasswordOwner): string[] {
  const words = [...serviceWords()];
  if (owner.email) {
    const email = owner.email.toLowerCase();
    const [local = '', domain = ''] = email.split('@');
    words.push(email, local, ...local.split(/[^\p{L}\p{N}]+/u), ...domain.split('.'));
  }
  if (owner.name) words.push(owner.name.toLowerCase(), ...owner.name.toLowerCase().split(/\s+/));
  return [...new Set(words.filter((word) => word.length >= 3))];
}

function reasonOf(sequence: MatchExtended[]): keyof typeof GUESSABLE_BECAUSE {
  // The most telling of the guessable parts zxcvbn split it into, in this order.
  const dictionaryOf = (match: MatchExtended) => (match.pattern === 'dictionary' ? (match as { dictionaryName?: string }).dictionaryName : undefined);
  const patterns = new Set(
    sequence.map((match) => (dictionaryOf(match) === 'userInputs' ? 'personal' : dictionaryOf(match) === DATES_DICTIONARY ? 'date' : match.pattern)),
  );
  if (patterns.has('personal')) return 'personal';
  if (patterns.has('repeat')) return 'repeat';
  if (patterns.has('sequence')) return 'sequence';
  if (patterns.has('spatial')) return 'spatial';
  if (patterns.has('date') || patterns.has('regex')) return 'date';
  if (patterns.has('dictionary')) return 'words';
  return 'short';
}

/**
 * Whether a password is, or is built on, a commonly used one: compared without case, as typed and
 * with the digits and symbols people append at the end removed ("Password1234!" is "password"),
 * which is how length rules are usually met by the passwords attackers try first.
 */
export function isCommonPassword(password: string): boolean {
  const list = loadCommonPasswords();
  const lowered = password.toLowerCase();
  if (list.has(lowered)) return true;
  const base = lowered.replace(/[\d\W_]+$/u, '');
  return base.length > 0 && base !== lowered && list.has(base);
}

type GuessWord = 'service' | 'date' | 'joining';

let guessWords: { kinds: Map<string, GuessWord>; longest: number } | undefined;

/** Every word of the three kinds, folded, with its kind (a service word wins over a joining one). */
function guessVocabulary(): NonNullable<typeof guessWords> {
  if (!guessWords) {
    const kinds = new Map<string, GuessWord>();
    for (const word of JOINING_WORDS) kinds.set(word, 'joining');
    for (const word of DATE_WORDS) kinds.set(folded(word), 'date');
    for (const word of serviceWords().map(folded)) if (/^\p{L}+$/u.test(word)) kinds.set(word, 'service');
    guessWords = { kinds, longest: Math.max(...[...kinds.keys()].map((word) => word.length)) };
  }
  return guessWords;
}

/**
 * Whether every letter of the password belongs to the service's words, a month or a day (with the
 * words that join them, and the K of a NIT's check digit), with at least one of those: then it is
 * nothing but a guess an attacker tries first, padded with digits and symbols however long.
 * Each run of letters must split into such words ("miclave": mi + clave).
 */
function builtOnlyOn(password: string): 'serviceWords' | 'dateWords' | null {
  // A NIT's check digit K, after its digits (576937-K), is no word of its own.
  const runs = folded(password).replace(/(\d\s?-?\s?)k(?!\p{L})/gu, '$1').match(/\p{L}+/gu) ?? [];
  const { kinds } = guessVocabulary();
  const found = new Set<GuessWord>();
  for (const run of runs) {
    const words = splitIntoWords(run);
    if (!words) return null;
    for (const word of words) found.add(kinds.get(word)!);
  }
  if (found.has('service')) return 'serviceWords';
  if (found.has('date')) return 'dateWords';
  return null;
}

/**
 * The run of letters as a sequence of the vocabulary's words, or null when it is not one: a
 * word-break over the run (its length times the longest word), never a backtracking pattern.
 */
function splitIntoWords(run: string): string[] | null {
  const { kinds, longest } = guessVocabulary();
  // startOf[end]: where the last word of a split of the run's first `end` letters starts (-1: none).
  const startOf = [0, ...Array<number>(run.length).fill(-1)];
  for (let end = 1; end <= run.length; end++) {
    for (let start = Math.max(0, end - longest); start < end && startOf[end] === -1; start++) {
      if (startOf[start] !== -1 && kinds.has(run.slice(start, end))) startOf[end] = start;
    }
  }
  if (startOf[run.length] === -1) return null;
  const words: string[] = [];
  for (let end = run.length; end > 0; end = startOf[end]!) words.unshift(run.slice(startOf[end], end));
  return words;
}

/**
 * Null when a new password may be used; otherwise the message that says why not: too short, a
 * common one, or guessable by zxcvbn (repetitions, sequences, keyboard runs, dates, common words,
 * and the owner's e-mail and name and the service's own words, given to it as the user's context).
 */
export async function newPasswordProblem(password: string, owner: PasswordOwner = {}): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_RULE_MESSAGES.tooShort;
  if (isCommonPassword(password)) return PASSWORD_RULE_MESSAGES.common;
  const lowered = password.toLowerCase();
  const words = personalWords(owner);
  // The owner's e-mail or name inside it, however padded, is a guess away (zxcvbn scores a long
  // padding as strength).
  const service = new Set(serviceWords());
  if (words.some((word) => word.length >= 5 && !service.has(word) && lowered.includes(word))) return guessablePasswordMessage('personal');
  const builtOn = builtOnlyOn(password);
  if (builtOn) return guessablePasswordMessage(builtOn);
  if (carriesKnownIdentifier(password, owner)) return guessablePasswordMessage('identifier');
  const result = (await passwordEstimator()).check(password.slice(0, 100), words);
  if (result.score >= MIN_SCORE) return null;
  return guessablePasswordMessage(reasonOf(result.sequence));
}
