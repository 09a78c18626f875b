import fs from 'node:fs';
import path from 'node:path';
import { ZxcvbnFactory, type MatchExtended } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH } from '@/lib/security/passwords';

/**
 * The list of common passwords the console refuses (scripts/write-common-passwords.ts writes it
 * from a public breach-frequency list). Read from the working directory the app, the CLI and the
 * tests all run in (the repository's root), once per process; a missing list fails the first
 * password check instead of letting every password through.
 */
const COMMON_PASSWORDS_FILE = path.join(process.cwd(), 'lib', 'passwords', 'common-passwords.txt');

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
  common: 'Esa contraseña es de las más usadas y se adivina en segundos: elige otra, por ejemplo una frase de varias palabras.',
} as const;

const GUESSABLE = 'Esa contraseña se adivina con facilidad';
const ADVICE = 'Elige otra, por ejemplo una frase de varias palabras que no tenga que ver contigo ni con el servicio.';

/** Why zxcvbn found a password guessable, by the kind of its weakest part, in the console's words. */
export const GUESSABLE_BECAUSE = {
  personal: 'lleva tu correo, tu nombre o el nombre del servicio',
  repeat: 'repite los mismos caracteres',
  sequence: 'es una secuencia (abcd, 1234)',
  spatial: 'sigue una fila o un trazo del teclado (qwerty, asdf)',
  date: 'se basa en una fecha o un año',
  words: 'se arma con palabras o nombres muy comunes',
  short: 'es demasiado simple',
} as const;

/** The refusal for a guessable password, saying why. */
export function guessablePasswordMessage(reason: keyof typeof GUESSABLE_BECAUSE): string {
  return `${GUESSABLE}: ${GUESSABLE_BECAUSE[reason]}. ${ADVICE}`;
}

/**
 * The service's own words, which an attacker tries first against this console (and which a person
 * choosing a password here reaches for): the country, the product, the sources and identifiers.
 */
const SERVICE_WORDS = ['guatemala', 'guate', 'consultas', 'consulta', 'consultasgt', 'contribuyente', 'contribuyentes', 'sat', 'renap', 'rtu', 'nit', 'cui', 'omisos', 'catalogos', 'integracion', 'integraciones', 'gateway', 'admin', 'soporte', 'consola'];

/** zxcvbn's lowest accepted score (0 to 4): 3 is "safely unguessable: moderate protection from an offline attack". */
const MIN_SCORE = 3;

let estimator: ZxcvbnFactory | undefined;

function passwordEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return estimator;
}

/** Who the password is for: their e-mail and name are the first guesses of someone who knows them. */
export interface PasswordOwner {
  email?: string;
  name?: string;
}

function personalWords(owner: PasswordOwner): string[] {
  const words = [...SERVICE_WORDS];
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
  const patterns = new Set(sequence.map((match) => (match.pattern === 'dictionary' && (match as { dictionaryName?: string }).dictionaryName === 'userInputs' ? 'personal' : match.pattern)));
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

/**
 * Null when a new password may be used; otherwise the message that says why not: too short, a
 * common one, or guessable by zxcvbn (repetitions, sequences, keyboard runs, dates, common words,
 * and the owner's e-mail and name and the service's own words, given to it as the user's context).
 */
export function newPasswordProblem(password: string, owner: PasswordOwner = {}): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_RULE_MESSAGES.tooShort;
  if (isCommonPassword(password)) return PASSWORD_RULE_MESSAGES.common;
  const lowered = password.toLowerCase();
  const words = personalWords(owner);
  // The owner's e-mail or name inside it, however padded, is a guess away (zxcvbn scores a long
  // padding as strength).
  if (words.some((word) => word.length >= 5 && !SERVICE_WORDS.includes(word) && lowered.includes(word))) return guessablePasswordMessage('personal');
  const result = passwordEstimator().check(password.slice(0, 100), words);
  if (result.score >= MIN_SCORE) return null;
  return guessablePasswordMessage(reasonOf(result.sequence));
}
