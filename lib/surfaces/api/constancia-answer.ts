// A lookup sent with `x-constancia: true` gets a signed receipt of its answer (lib/core/constancias),
// named in the answer's headers; the body and status stay exactly as the contract says. Receipts are
// of what a registry said: a record (200) or that it holds none (404); a refusal, a failure or an
// Idempotency-Key's replay gets the reason instead (docs/constancias.md).
import type { LookupKind } from '@/db/schema';
import { issueConstancia } from '@/lib/core/constancias/issue';
import { integrationDirectory } from '@/lib/core/integrations/directory';
import { IDEMPOTENCY_REPLAYED_HEADER } from '@/lib/core/idempotency/key';
import { logger } from '@/lib/platform/logging/logger';
import type { LookupAnswer } from './responses';

export const CONSTANCIA_REQUEST_HEADER = 'x-constancia';
export const CONSTANCIA_ID_HEADER = 'x-constancia-id';
export const CONSTANCIA_URL_HEADER = 'x-constancia-url';
export const CONSTANCIA_REFUSAL_HEADER = 'x-constancia-motivo';

/** Why a receipt that was asked for was not issued, as the x-constancia-motivo header says it. */
export const CONSTANCIA_REFUSALS = {
  notEnabled: 'no-habilitada',
  notARegistryAnswer: 'sin-respuesta-del-registro',
  replay: 'repeticion',
  unavailable: 'no-disponible',
} as const;

/** The statuses that carry what a registry said: its record, or that it has none. */
const EVIDENT_STATUSES = new Set([200, 404]);

export function asksForConstancia(header: string | null): boolean {
  return header?.trim().toLowerCase() === 'true';
}

export interface ConstanciaContext {
  lookup: LookupKind;
  requestId: string;
  /** The authenticated integration's login, when the lookup got that far. */
  integration: string | undefined;
  requestBody: unknown;
}

/** Issues the receipt an answer was asked for and names it (or why not) in the answer's headers. */
export async function withConstancia(answer: LookupAnswer, context: ConstanciaContext): Promise<LookupAnswer> {
  const reason = await issueFor(answer, context);
  if (typeof reason === 'string') answer.headers[CONSTANCIA_REFUSAL_HEADER] = reason;
  else {
    answer.headers[CONSTANCIA_ID_HEADER] = reason.id;
    answer.headers[CONSTANCIA_URL_HEADER] = reason.url;
  }
  return answer;
}

async function issueFor(answer: LookupAnswer, context: ConstanciaContext): Promise<string | { id: string; url: string }> {
  const integration = context.integration === undefined ? undefined : integrationDirectory().authenticatedByName(context.integration);
  if (!integration?.constanciasEnabled) return CONSTANCIA_REFUSALS.notEnabled;
  if (answer.headers[IDEMPOTENCY_REPLAYED_HEADER]) return CONSTANCIA_REFUSALS.replay;
  if (!EVIDENT_STATUSES.has(answer.status) || answer.body === null) return CONSTANCIA_REFUSALS.notARegistryAnswer;
  try {
    return await issueConstancia({
      integrationId: integration.id,
      integrationLogin: integration.nombre,
      lookup: context.lookup,
      requestId: context.requestId,
      requestBody: context.requestBody,
      status: answer.status,
      responseBody: answer.body,
    });
  } catch (error) {
    // The answer stands (it was charged and recorded); only its receipt is missing, and it says so.
    logger('constancias').error({ err: error, lookup: context.lookup }, 'issuing a constancia failed');
    return CONSTANCIA_REFUSALS.unavailable;
  }
}
