import { heldInFlight, listHistoryPage, parseHistoryFilters, type HeldInFlight, type HistoryFilters, type PostedKind } from '@/lib/core/billing/history';
import { describeLedgerActor } from '@/lib/vocabulary/actor-labels';
import { plainSearchParams, type SearchParamsInput } from '@/lib/core/records/filters';
import { readableLedgerNote } from '@/lib/flows/top-ups/notes';
import type { PortalUserSession } from './session';

// "Movimientos": the session's integration's balance history, through the console's service
// (lib/core/billing/history), in an integrator's words. The console names the staff member or CLI
// operator who topped up or adjusted; an integrator sees "Administración" instead: who among the
// service's staff did it is not theirs to know (and an e-mail of our staff is personal data).

/** A movement as the portal shows it. */
export interface PortalMovement {
  id: number;
  kind: PostedKind;
  amountCentavos: number;
  balanceAfterCentavos: number;
  createdAt: Date;
  /** Who moved the money, as an integrator reads it: "Administración", "Consulta a la API"… */
  origin: string;
  /** The note of a top-up or adjustment, which staff writes for the integrator to read. */
  note: string | null;
}

export interface PortalMovementsPage {
  rows: PortalMovement[];
  older?: string;
  newer?: string;
  held: HeldInFlight;
  filters: HistoryFilters;
  problems: string[];
  hastaProblem?: string;
}

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

/** One page of the session's integration's movements; the integration comes from the session only. */
export async function portalMovementsPage(user: PortalUserSession, query: SearchParamsInput): Promise<PortalMovementsPage> {
  const { filters, problems, hastaProblem } = parseHistoryFilters(query);
  const plain = plainSearchParams(query);
  const position = { after: plain.despues, before: plain.antes };
  const [page, held] = await Promise.all([listHistoryPage(user.integrationId, filters, position), heldInFlight(user.integrationId)]);
  return {
    rows: page.rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      amountCentavos: row.amountCentavos,
      balanceAfterCentavos: row.balanceAfterCentavos,
      createdAt: row.createdAt,
      origin: row.kind === 'capture' ? 'Consulta a la API' : integratorLedgerOrigin(row.actor),
      note: row.kind === 'capture' || row.note === null ? null : readableLedgerNote(row.note),
    })),
    older: page.older,
    newer: page.newer,
    held,
    filters,
    problems,
    hastaProblem,
  };
}
