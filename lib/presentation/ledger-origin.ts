import { describeLedgerActor } from '@/lib/vocabulary/actor-labels';

// Who moved an integration's money, in the integrator's words (the portal's Movimientos and
// GET /api/cuenta/movimientos): the console names the staff member or CLI operator who topped up or
// adjusted; an integrator reads "Administración" instead, since who among the service's staff did it
// is not theirs to know (and an e-mail of our staff is personal data).

/** Who moved the money, without naming the service's staff: a person or the CLI is "Administración". */
export function integratorLedgerOrigin(actor: string): string {
  if (/^user:\d+ /.test(actor) || actor === 'cli' || actor.startsWith('cli:')) return 'Administración';
  if (actor.startsWith('system')) {
    // The service's own processes by what they do ("Consulta a la API"); one without a label is
    // just "Sistema", not its internal name.
    const described = describeLedgerActor(actor);
    return described.startsWith('Sistema') ? 'Sistema' : described;
  }
  // Anything else names someone the portal cannot vouch is not staff.
  return 'Administración';
}

/** A charged lookup's origin, whoever its actor was. */
export const CHARGED_LOOKUP_ORIGIN = 'Consulta a la API';
