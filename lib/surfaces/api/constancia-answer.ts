// A lookup sent with `x-constancia: true` gets a signed receipt of its answer (lib/core/constancias),
// named in the answer's headers; the body and status stay exactly as the contract says. Receipts are
// of what a registry said: a record (200) or that it holds none (404); a refusal, a failure or an
// Idempotency-Key's replay gets the reason instead (docs/constancias.md). The receipt is written in
// the statement that records the lookup (lib/flows/lookups/receipt.ts): no round trip of its own.
import type { StatementCompanion } from '@/db/compiled-statement';
import type { LookupKind } from '@/db/schema';
import type { IssuedConstancia } from '@/lib/core/constancias/issue';
import { integrationDirectory, type AuthenticatedIntegration } from '@/lib/core/integrations/directory';
import { IDEMPOTENCY_REPLAYED_HEADER } from '@/lib/core/idempotency/key';
import { signedReceipt, type LookupReceipt } from '@/lib/flows/lookups/receipt';
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
  balance: 'saldo-insuficiente',
} as const;

/** The statuses that carry what a registry said: its record, or that it has none. */
const EVIDENT_STATUSES = new Set([200, 404]);

export function asksForConstancia(header: string | null): boolean {
  return header?.trim().toLowerCase() === 'true';
}

export interface ConstanciaContext {
  lookup: LookupKind;
  requestId: string;
  /** The authenticated integration's login once the lookup got that far (its trace's). */
  integration: () => string | undefined;
  /** The request's JSON body as read (null until read, or when it was not JSON). */
  requestBody: () => unknown;
}

/**
 * The receipt a lookup was asked for: the flow asks it for its rows just before recording the
 * outcome (it renders the answer then, to sign it) and tells it once they committed; the route then
 * takes the answer from it, with the receipt's id and address, or why it has none, in its headers.
 */
export class ConstanciaRequest<Outcome> implements LookupReceipt<Outcome> {
  private signed: { outcome: Outcome; answer: LookupAnswer; issued?: IssuedConstancia } | undefined;
  /** Once the statement that records the lookup committed: whether it wrote the receipt (its tariff covered). */
  private written: boolean | undefined;

  constructor(
    private readonly context: ConstanciaContext,
    private readonly render: (outcome: Outcome, requestId: string) => LookupAnswer,
  ) {}

  async companionFor(outcome: Outcome, integration: AuthenticatedIntegration): Promise<StatementCompanion | undefined> {
    const answer = this.render(outcome, this.context.requestId);
    this.signed = { outcome, answer };
    if (!integration.constanciasEnabled || !isEvident(answer)) return undefined;
    const { lookup, requestId } = this.context;
    const prepared = await signedReceipt(integration, { lookup, requestId, requestBody: this.context.requestBody() }, { status: answer.status, body: answer.body! });
    this.signed.issued = prepared?.issued;
    if (!prepared) return undefined;
    return {
      ...prepared.companion,
      committed: (written) => {
        this.written = written;
      },
    };
  }

  /** The answer to send for the lookup's final outcome, naming its receipt or why it has none. */
  answerOf(outcome: Outcome): LookupAnswer {
    const signed = this.signed?.outcome === outcome ? this.signed : undefined;
    const answer = signed?.answer ?? this.render(outcome, this.context.requestId);
    if (signed?.issued && this.written) {
      answer.headers[CONSTANCIA_ID_HEADER] = signed.issued.id;
      answer.headers[CONSTANCIA_URL_HEADER] = signed.issued.url;
    } else {
      answer.headers[CONSTANCIA_REFUSAL_HEADER] = this.reasonForNone(answer);
    }
    return answer;
  }

  private reasonForNone(answer: LookupAnswer): string {
    const login = this.context.integration();
    const integration = login === undefined ? undefined : integrationDirectory().authenticatedByName(login);
    if (!integration?.constanciasEnabled) return CONSTANCIA_REFUSALS.notEnabled;
    if (answer.headers[IDEMPOTENCY_REPLAYED_HEADER]) return CONSTANCIA_REFUSALS.replay;
    if (!isEvident(answer)) return CONSTANCIA_REFUSALS.notARegistryAnswer;
    // Recorded, and its tariff not covered by the balance: the lookup stands, without its receipt.
    if (this.written === false) return CONSTANCIA_REFUSALS.balance;
    // Asked and refused by nothing, yet not written: its signing failed, or the database did not
    // take the record (kept in the journal, without its receipt).
    return CONSTANCIA_REFUSALS.unavailable;
  }
}

function isEvident(answer: LookupAnswer): boolean {
  return EVIDENT_STATUSES.has(answer.status) && answer.body !== null;
}
