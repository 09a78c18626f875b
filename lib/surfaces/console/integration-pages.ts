// The sections of an integration's page (/admin/integraciones/[id]/…): what each shows, read once
// the section's layout found the integration.
import { balanceSettings } from '@/lib/core/billing/settings';
import { heldInFlight, listHistoryPage } from '@/lib/core/billing/history';
import { latestVerification } from '@/lib/core/billing/verify';
import { latestRefusedAddresses } from '@/lib/core/credentials/refused-addresses';
import { flagsOf } from '@/lib/core/integrations/flags';
import { listLatestRecords } from '@/lib/core/records/list';
import { loadDashboard } from '@/lib/core/rollups/usage';
import { maskedIdentifiers } from '@/lib/core/sealing/masking';
import { detailsOf } from '@/lib/flows/integration-management/details-service';
import { findIntegration, type IntegrationView } from '@/lib/flows/integration-management/service';
import { listTokens, type TokenView } from '@/lib/flows/integration-management/tokens';
import { integrationReceptor } from '@/lib/flows/invoicing/receptor';
import { rotationSides } from '@/lib/core/credentials/rotation-pairs';
import { receptorText } from '@/lib/presentation/invoice-labels';
import { listStatements } from '@/lib/flows/statements/statements';
import { integrationWarnings } from '@/lib/surfaces/console/integration-warnings';
import { tokenDistinction } from '@/lib/presentation/token-labels';

/** The integration an address names (/admin/integraciones/[id]): undefined when the id is not a number or names none. */
export async function integrationOfAddress(id: string): Promise<IntegrationView | undefined> {
  if (!/^\d{1,9}$/.test(id)) return undefined;
  return findIntegration(Number(id));
}

/** «Resumen»: what needs attention, the lookups it may make, its tokens in short. */
export async function integrationSummaryView(integration: IntegrationView) {
  const tokens = await listTokens(integration.id);
  return {
    tokens,
    warnings: integrationWarnings(integration, tokens, balanceSettings().ALERT_LOW_BALANCE_DEFAULT_CENTAVOS),
    flags: flagsOf(integration),
  };
}

/** «Credenciales»: its tokens, and the latest addresses refused for not being allowed. */
export async function integrationCredentialsView(integrationId: number) {
  const [tokens, refused] = await Promise.all([listTokens(integrationId), latestRefusedAddresses(integrationId)]);
  return { tokens, refused };
}

/** «Datos»: who the integrator is, as its form edits it. */
export function integrationDetailsView(integration: IntegrationView) {
  return detailsOf(integration);
}

/** «Saldo y estados de cuenta»: its latest movements, the holds in flight, its statements, and the latest reconciliation. */
export async function integrationBalanceView(integrationId: number, historyRows: number) {
  const [history, held, statements, reconciliation] = await Promise.all([
    listHistoryPage(integrationId, {}, {}, historyRows),
    heldInFlight(integrationId),
    listStatements(integrationId),
    latestVerification(),
  ]);
  return { history, held, statements, reconciliation };
}

/** «Uso»: the last 30 days from the rollups, and its latest queries (identifiers masked, as in every list). */
export async function integrationUsageView(integrationId: number, recentRows: number) {
  const [usage, recent] = await Promise.all([loadDashboard('30d', new Date(), integrationId), listLatestRecords({ integracion: integrationId }, recentRows)]);
  return { usage, recent: recent.map((unmasked) => maskedIdentifiers(unmasked)) };
}

/** Whom the integration's next invoice names, as «Datos» writes it (CF when none is set), and since when. */
export function integrationReceptorView(integration: Parameters<typeof integrationReceptor>[0]): { text: string; set: boolean; setAt: Date | null } {
  const { receptor, set, setAt } = integrationReceptor(integration);
  const text = receptorText({
    receptorKind: receptor.kind,
    receptorId: receptor.kind === 'nit' ? receptor.nit : receptor.kind === 'cui' ? receptor.cui : 'CF',
    receptorName: receptor.kind === 'cf' ? null : receptor.name,
  });
  return { text, set, setAt };
}

/** The tokens a form offers, each told apart from its rotation's other token (new or old, created, working until). */
export function tokenChoices(tokens: TokenView[], offered: (token: TokenView) => boolean) {
  const sides = rotationSides(tokens);
  return tokens.filter(offered).map((token) => ({ id: token.id, label: token.label, prefix: token.tokenPrefix, distinction: tokenDistinction(token, sides) }));
}
