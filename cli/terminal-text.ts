// Text the CLI prints that came from outside (identifiers integrators sent, names and notes people
// typed, upstream messages) must not drive the operator's terminal: an escape sequence in a NIT
// could retitle the window, rewrite earlier lines or hide the rest of a record, and bidirectional
// controls can reorder what is read. Such characters are printed as visible escapes instead.

// C0 controls (tab and newline included: a value must stay on its line), DEL, C1 controls, the
// line and paragraph separators, and the bidirectional embedding, override and isolate controls.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visibleEscape(character: string): string {
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A value for the text output: control characters shown as \x1b, \u202e and the like. */
export function terminalSafe(value: string | number | null | undefined): string {
  return String(value ?? '').replace(UNSAFE, visibleEscape);
}

// What JSON.stringify leaves as is: it escapes C0 controls inside strings itself (and the newlines
// outside strings are the layout).
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON for --json, with the characters above as \u escapes (the same string once parsed). */
export function terminalSafeJson(data: unknown): string {
  return JSON.stringify(data, null, 2).replace(UNSAFE_IN_JSON, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
