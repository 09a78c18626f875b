// After `next build`: rewrites every server chunk so that it holds no character above U+00FF.
//
// V8 keeps each script's source text for as long as its functions live, and keeps a string in one
// byte per character only when every character fits in Latin-1: a single "…" in a log message made
// the 1.1 MB chunk every instance loads at its start a two-byte string (docs/performance.md, "What an
// instance's memory is made of"). Minifiers call this ascii_only (terser, esbuild's charset=ascii);
// Next's does not offer it. Each such character becomes the escape that means the same character
// where it stands, found with acorn's tokenizer: in strings, untagged templates, regular
// expressions and identifiers; in comments it is dropped. A tagged template's text is left as it is
// (its tag may read the raw text), and so is its chunk, which then stays two-byte. A regular
// expression's `source` then spells the escape (it matches the same). Source maps are not
// rewritten: a column after an escape on the same line is off by the escape's length.
//
//   run by scripts/after-next-build.mjs, which npm run build runs after next build
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { tokTypes as tt, tokenizer } from 'acorn';

const ABOVE_LATIN1 = /[^\u0000-\u00ff]/u;
const ABOVE_LATIN1_ALL = /[^\u0000-\u00ff]/gu;

const hex4 = (unit) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** The escape of one character as JavaScript reads it in a string, a template or a regular expression. */
function unitEscapes(character) {
  let escaped = '';
  for (let index = 0; index < character.length; index++) escaped += hex4(character.charCodeAt(index));
  return escaped;
}

/**
 * Escapes the characters above U+00FF of a string's, template's or regular expression's text. A
 * character after an odd run of backslashes is an identity escape ("\…" means "…"): its backslash
 * goes with it, since "\\u2026" would read as a backslash and five letters.
 */
function escapeLiteral(text) {
  return text.replace(/(\\*)([^\u0000-\u00ff])/gu, (_, backslashes, character) => {
    if (backslashes.length % 2 === 0) return backslashes + unitEscapes(character);
    // A backslash before a line separator continues the line: the two mean nothing in a string.
    return backslashes.slice(1) + (/[\u2028\u2029]/u.test(character) ? '' : unitEscapes(character));
  });
}

/** Identifiers take code-point escapes (a surrogate pair's halves are not identifier characters). */
function escapeIdentifier(text) {
  return text.replace(ABOVE_LATIN1_ALL, (character) => {
    const point = character.codePointAt(0);
    return point > 0xffff ? `\\u{${point.toString(16)}}` : hex4(point);
  });
}

/** Tokens after which a template is a tagged one's: anything that can end an expression. */
const endsExpression = (type) => type !== undefined && !type.beforeExpr && type !== tt.eof;

function tokens(source) {
  const comments = [];
  const options = { ecmaVersion: 'latest', allowHashBang: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, onComment: comments };
  try {
    return { tokens: [...tokenizer(source, { ...options, sourceType: 'script' })], comments };
  } catch {
    comments.length = 0;
    return { tokens: [...tokenizer(source, { ...options, sourceType: 'module' })], comments };
  }
}

/**
 * The source with every character above U+00FF escaped, or null when one stays (inside a tagged
 * template, or between tokens where only a space or a line break can be).
 */
export function latin1Source(source) {
  if (!ABOVE_LATIN1.test(source)) return source;
  const { tokens: list, comments } = tokens(source);
  const edits = [];
  // Whether each template open at this point is tagged, and where `${` and `{` open and close.
  const stack = [];
  let previous;
  let leftRaw = false;
  for (const token of list) {
    const text = source.slice(token.start, token.end);
    if (token.type === tt.backQuote) {
      if (stack.at(-1)?.kind === 'template') stack.pop();
      else stack.push({ kind: 'template', tagged: endsExpression(previous) });
    } else if (token.type === tt.dollarBraceL || token.type === tt.braceL) {
      stack.push({ kind: 'brace' });
    } else if (token.type === tt.braceR) {
      stack.pop();
    }
    if (ABOVE_LATIN1.test(text)) {
      if (token.type === tt.string || token.type === tt.regexp) edits.push([token.start, token.end, escapeLiteral(text)]);
      else if (token.type === tt.template || token.type === tt.invalidTemplate) {
        if (stack.at(-1)?.tagged) leftRaw = true;
        else edits.push([token.start, token.end, escapeLiteral(text)]);
      } else if (token.type === tt.name || token.type === tt.privateId) edits.push([token.start, token.end, escapeIdentifier(text)]);
      else leftRaw = true;
    }
    previous = token.type;
  }
  if (leftRaw) return null;
  for (const comment of comments) {
    const text = source.slice(comment.start, comment.end);
    if (ABOVE_LATIN1.test(text)) edits.push([comment.start, comment.end, text.replace(ABOVE_LATIN1_ALL, '?')]);
  }
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end, replacement] of edits) {
    out += source.slice(at, start) + replacement;
    at = end;
  }
  out += source.slice(at);
  // Between tokens: white space and line breaks only (U+2028 and U+2029 are line breaks to JavaScript).
  out = out.replace(ABOVE_LATIN1_ALL, (character) => (/[\u2028\u2029]/u.test(character) ? '\n' : /\s/u.test(character) ? ' ' : character));
  return ABOVE_LATIN1.test(out) ? null : out;
}

/** Rewrites the server chunks of a build in place; what it did, for the build's output. */
export function latin1ServerCode(distDir) {
  const serverDir = path.join(distDir, 'server');
  let rewritten = 0;
  let savedBytes = 0;
  const leftTwoByte = [];
  for (const entry of fs.readdirSync(serverDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(c|m)?js$/u.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const source = fs.readFileSync(file, 'utf8');
    if (!ABOVE_LATIN1.test(source)) continue;
    const relative = path.relative(distDir, file);
    const out = latin1Source(source);
    if (out === null) {
      leftTwoByte.push(relative);
      continue;
    }
    // A chunk that no longer compiles is never written: the build fails here instead of at a request.
    try {
      new vm.Script(out, { filename: relative });
    } catch (error) {
      if (!(error instanceof SyntaxError) || !/import|export/u.test(error.message)) throw new Error(`latin1-server-code: ${relative} no longer compiles: ${error.message}`);
    }
    fs.writeFileSync(file, out);
    rewritten++;
    savedBytes += source.length;
  }
  return { rewritten, savedBytes, leftTwoByte };
}
