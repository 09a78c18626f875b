import { describe, expect, it } from 'vitest';
import { coreWordsProblems, spanishLiterals } from './core-words.mjs';

describe('words for people in lib/core', () => {
  it('are found in string and template literals, not in comments, regular expressions or codes', () => {
    const source = [
      '// La fecha está mal: a comment says anything.',
      "/** «¿Quién consultó?» in a doc comment. */",
      "const code = 'not_found';",
      "const plain = 'La fecha final es anterior a la inicial.';",
      "const sentence = 'El ajuste dejaría el saldo por debajo de cero.';",
      'const template = `Como máximo ${max} entradas.`;',
      'const middle = `${a} y ${b}: sí`;',
      "const pattern = /[áé]/;",
      'const quoted = "¡Hola!";',
    ].join('\n');
    expect(spanishLiterals(source)).toEqual([
      { line: 5, text: 'El ajuste dejaría el saldo por debajo de cero.' },
      { line: 6, text: 'Como máximo ' },
      { line: 7, text: ': sí' },
      { line: 9, text: '¡Hola!' },
    ]);
  });

  it('fail a file not listed, and the list only shrinks', () => {
    const found = new Map([
      ['lib/core/a.ts', [{ line: 3, text: 'Está mal.' }]],
      ['lib/core/b.ts', []],
    ]);
    expect(coreWordsProblems({ found, known: ['lib/core/a.ts'], mainKnown: ['lib/core/a.ts'] })).toEqual([]);
    expect(coreWordsProblems({ found, known: [], mainKnown: null })).toEqual([
      'lib/core/a.ts:3 has words for people in lib/core («Está mal.»): return a code and say it in lib/presentation (or name it in lib/vocabulary)',
    ]);
    expect(coreWordsProblems({ found, known: ['lib/core/a.ts', 'lib/core/b.ts'], mainKnown: ['lib/core/a.ts', 'lib/core/b.ts'] })).toEqual([
      'lib/core/b.ts has no Spanish literal now (or is gone): remove it from .core-words-known.json',
    ]);
    expect(coreWordsProblems({ found, known: ['lib/core/a.ts'], mainKnown: [] })).toEqual([
      'lib/core/a.ts was added to .core-words-known.json, which only shrinks: move its words out of lib/core instead',
    ]);
  });
});
