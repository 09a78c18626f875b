// npm run lint:words
//   lib/core holds codes and facts; the words people read live in lib/presentation (sentences) or
//   lib/vocabulary (the nouns and the labels of states). This check fails when a file of lib/core
//   (tests aside) has a string literal, or a template literal's text, with a Spanish accented letter,
//   ñ, ü, ¿ or ¡: a sentence written where a code belongs. Comments are not literals. It reads the
//   files with TypeScript's own parser, so a quote in a comment, a regular expression or a template
//   never misleads it. It cannot see Spanish without those letters ("La fecha final es anterior a
//   la inicial."): a reviewer still reads those.
//
//   The files that still hold such literals are listed in .core-words-known.json, a list that only
//   shrinks: a listed file whose words left must leave it, and a file added to it against main's list
//   fails (move the words instead).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const CORE_WORDS_KNOWN = '.core-words-known.json';
const SPANISH = /[áéíóúÁÉÍÓÚñÑüÜ¿¡]/;

/** The literals of a TypeScript source that carry Spanish letters, with their line (1-based). */
export function spanishLiterals(source, fileName = 'file.ts') {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (SPANISH.test(node.text)) found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The product's files under lib/core, tests aside. */
export function coreFiles(root = 'lib/core') {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|mts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  walk(root);
  return files.sort();
}

/**
 * What is wrong: a file with Spanish literals that is not listed (each literal named), a listed file
 * without any (it leaves the list), a file listed that main's list does not have.
 */
export function coreWordsProblems({ found, known, mainKnown }) {
  const problems = [];
  const listed = new Set(known);
  for (const [file, literals] of found) {
    if (literals.length === 0 || listed.has(file)) continue;
    for (const literal of literals) {
      problems.push(`${file}:${literal.line} has words for people in lib/core («${literal.text.slice(0, 60)}»): return a code and say it in lib/presentation (or name it in lib/vocabulary)`);
    }
  }
  for (const file of known) {
    if ((found.get(file) ?? []).length === 0) problems.push(`${file} has no Spanish literal now (or is gone): remove it from ${CORE_WORDS_KNOWN}`);
  }
  if (mainKnown) {
    const before = new Set(mainKnown);
    for (const file of known) if (!before.has(file)) problems.push(`${file} was added to ${CORE_WORDS_KNOWN}, which only shrinks: move its words out of lib/core instead`);
  }
  return problems;
}

/** The list as main has it (origin/main, else main), or null when neither has one. */
export function mainsList() {
  for (const ref of ['origin/main', 'main']) {
    try {
      return JSON.parse(execFileSync('git', ['show', `${ref}:${CORE_WORDS_KNOWN}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      // Not on this ref: try the next.
    }
  }
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const found = new Map(coreFiles().map((file) => [file, spanishLiterals(fs.readFileSync(file, 'utf8'), file)]));
  const problems = coreWordsProblems({ found, known: JSON.parse(fs.readFileSync(CORE_WORDS_KNOWN, 'utf8')), mainKnown: mainsList() });
  for (const problem of problems) console.error(`✗ ${problem}`);
  const listed = [...found.values()].filter((literals) => literals.length > 0).length;
  console.log(`words: ${found.size} files of lib/core, ${listed} with Spanish literals; ${problems.length} problem(s) against ${CORE_WORDS_KNOWN}`);
  process.exit(problems.length > 0 ? 1 : 0);
}
