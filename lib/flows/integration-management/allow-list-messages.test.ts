// The words of a refused allow-list entry: lib/core/credentials/allow-list.ts says what is wrong in
// codes, the console, the portal and the CLI in these sentences.
import { describe, expect, it } from 'vitest';
import { MAX_ALLOW_LIST_ENTRIES, parseAllowList, parseAllowListEntry, type AllowListProblem } from '@/lib/core/credentials/allow-list';
import { allowListProblemsText, allowListProblemText } from './allow-list-messages';

const problemOf = (typed: string): AllowListProblem => {
  const parsed = parseAllowListEntry(typed);
  if (parsed.ok) throw new Error(`${typed} was accepted`);
  return parsed.problem;
};

describe('a refused allow-list entry in words', () => {
  it('says each problem as the forms always said it', () => {
    expect(allowListProblemText(problemOf('  '))).toBe('Entrada vacía.');
    expect(allowListProblemText(problemOf('10.0.0.0/8/8'))).toBe('«10.0.0.0/8/8» no es una dirección IP ni un rango CIDR.');
    expect(allowListProblemText(problemOf('nada'))).toBe('«nada» no es una dirección IPv4 ni IPv6.');
    expect(allowListProblemText(problemOf('10.0.0.1/33'))).toBe('«10.0.0.1/33»: el prefijo debe ser un número de 0 a 32.');
    expect(allowListProblemText(problemOf('2001:db8::/129'))).toBe('«2001:db8::/129»: el prefijo debe ser un número de 0 a 128.');
    expect(allowListProblemText(problemOf('198.51.100.7/24'))).toBe('«198.51.100.7/24» tiene bits fuera del prefijo /24: el rango es 198.51.100.0/24.');
  });

  it('says every problem of a list in one message, the list too long last', () => {
    const wrong = parseAllowList('198.51.100.300, 10.0.0.1/33');
    expect(!wrong.ok && allowListProblemsText(wrong.problems)).toBe('«198.51.100.300» no es una dirección IPv4 ni IPv6. «10.0.0.1/33»: el prefijo debe ser un número de 0 a 32.');
    const many = parseAllowList(Array.from({ length: MAX_ALLOW_LIST_ENTRIES + 1 }, (_, index) => `10.0.${Math.floor(index / 256)}.${index % 256}`));
    expect(!many.ok && allowListProblemsText(many.problems)).toBe('Como máximo 100 entradas.');
  });
});
