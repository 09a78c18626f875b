// What is wrong with a typed IP allow-list (lib/core/credentials/allow-list.ts says it in codes), in
// the words the console, the portal and the CLI show. Here, on the flows' rung, because
// setAllowedNetworks answers with them itself and the surfaces above read the same words.
import type { AllowListProblem } from '@/lib/core/credentials/allow-list';

export function allowListProblemText(problem: AllowListProblem): string {
  switch (problem.code) {
    case 'empty':
      return 'Entrada vacía.';
    case 'not_ip_or_cidr':
      return `«${problem.typed}» no es una dirección IP ni un rango CIDR.`;
    case 'not_an_address':
      return `«${problem.typed}» no es una dirección IPv4 ni IPv6.`;
    case 'prefix_out_of_range':
      return `«${problem.typed}»: el prefijo debe ser un número de 0 a ${problem.maxBits}.`;
    case 'bits_past_prefix':
      return `«${problem.typed}» tiene bits fuera del prefijo /${problem.bits}: el rango es ${problem.network}/${problem.bits}.`;
    case 'too_many':
      return `Como máximo ${problem.max} entradas.`;
  }
}

/** Every problem of a list, in one message, as the forms and the CLI show them. */
export function allowListProblemsText(problems: readonly AllowListProblem[]): string {
  return problems.map(allowListProblemText).join(' ');
}
