import { heldInFlight, listHistoryPage, type HeldInFlight, type HistoryFilters, type PostedKind } from '@/lib/core/billing/history';
import { parseHistoryFilters } from '@/lib/presentation/history-filters';
import { CHARGED_LOOKUP_ORIGIN, integratorLedgerOrigin } from '@/lib/presentation/ledger-origin';
import { plainSearchParams, type SearchParamsInput } from '@/lib/core/records/filters';
import { readableLedgerNote } from '@/lib/flows/top-ups/notes';
import type { PortalUserSession } from './session';

// "Movimientos": the session's integration's balance history, through the console's service
// (lib/core/billing/history), in an integrator's words (lib/presentation/ledger-origin.ts).

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
  /** The FEL invoice of a top-up, when one was written. */
  invoiceId: number | null;
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
      origin: row.kind === 'capture' || row.kind === 'constancia' ? CHARGED_LOOKUP_ORIGIN : integratorLedgerOrigin(row.actor),
      note: row.kind === 'capture' || row.kind === 'constancia' || row.note === null ? null : readableLedgerNote(row.note),
      invoiceId: row.invoiceId,
    })),
    older: page.older,
    newer: page.newer,
    held,
    filters,
    problems,
    hastaProblem,
  };
}
