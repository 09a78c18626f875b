import { balanceCondition, lowBalanceThreshold } from '@/lib/reactions/alerts/conditions';
import type { TokenView } from '@/lib/flows/integration-management/tokens';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import type { IntegrationView } from '@/lib/flows/integration-management/service';
import { formatQuetzales } from '@/lib/platform/money';
import type { IntegrationSection } from './integration-sections';

/** Tokens ending this soon are worth a word on the summary: the integrator is told 7 days before too. */
export const TOKEN_ENDING_SOON_MS = 7 * 24 * 60 * 60 * 1000;

export interface IntegrationWarning {
  key: string;
  text: string;
  /** Where it is put right. */
  section: IntegrationSection;
}

type Subject = Pick<IntegrationView, 'active' | 'balanceCentavos' | 'tariffCentavos' | 'lowBalanceAlertCentavos' | 'purpose' | 'id' | 'nombre'>;

/**
 * What needs someone's attention on an integration, for its summary: each warning says what is
 * wrong in the console's words and which section puts it right. The balance follows the alerts'
 * rule (lib/reactions/alerts/conditions), so the summary, the Panel and the alerts agree.
 */
export function integrationWarnings(integration: Subject, tokens: TokenView[], lowBalanceDefaultCentavos: number, now = new Date()): IntegrationWarning[] {
  const warnings: IntegrationWarning[] = [];
  if (!integration.active) {
    warnings.push({ key: 'inactive', section: 'datos', text: 'La integración está desactivada: todas sus consultas se rechazan como credenciales no válidas.' });
  }
  const snapshot = { ...integration, integrationId: integration.id };
  const balance = balanceCondition(snapshot, { lowBalanceDefaultCentavos });
  if (balance === 'balance_exhausted') {
    warnings.push({
      key: 'balance',
      section: 'saldo',
      text: `Saldo agotado: ${formatQuetzales(integration.balanceCentavos)} no alcanza para una consulta de catálogo (${formatQuetzales(integration.tariffCentavos)}); sus catálogos responden 402.`,
    });
  } else if (balance === 'balance_low') {
    warnings.push({
      key: 'balance',
      section: 'saldo',
      text: `Saldo bajo: ${formatQuetzales(integration.balanceCentavos)}, por debajo del umbral de ${formatQuetzales(lowBalanceThreshold(snapshot, { lowBalanceDefaultCentavos }))}.`,
    });
  }
  if (!tokens.some((token) => token.state === 'active' || token.state === 'ending')) {
    warnings.push({ key: 'no-token', section: 'credenciales', text: 'Ningún token funciona: la integración no puede consultar hasta que tenga uno.' });
  }
  for (const token of tokens) {
    // A rotated token in its overlap ends by design; an active one with an expiry is news.
    if (token.state !== 'active' || !token.expiresAt || token.expiresAt.getTime() - now.getTime() > TOKEN_ENDING_SOON_MS) continue;
    warnings.push({
      key: `token-${token.id}`,
      section: 'credenciales',
      text: `El token «${token.label}» (${token.tokenPrefix}…) deja de funcionar el ${formatDateTime(token.expiresAt)}.`,
    });
  }
  if (!integration.purpose) {
    warnings.push({ key: 'purpose', section: 'datos', text: 'Sin finalidad declarada del uso de los datos: pregunte al integrador para qué consulta NIT y CUI.' });
  }
  return warnings;
}
