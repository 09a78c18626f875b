// The phrases (Frases) each IVA regime must carry on its documents. DATA, kept here alone: the
// XML writer and the certifier simulator both read this table, so a change of SAT's catalogue is
// one edit. (Unconfirmed against SAT's current catalogue of phrases: confirm before production.)
//   GEN, TipoFrase 1 ("retenciones del ISR"), escenario 1: "Sujeto a pagos trimestrales ISR".
//       An issuer under the ISR's simplified regime would carry escenario 2 ("Sujeto a retención
//       definitiva ISR") instead: when settings say so, this table grows a row.
//   PEQ, TipoFrase 3 ("pequeño contribuyente"), escenario 1: "No genera derecho a crédito fiscal".

import type { IvaAffiliation } from './document';

export interface Phrase {
  type: number;
  scenario: number;
}

export const REQUIRED_PHRASES: Readonly<Record<IvaAffiliation, readonly Phrase[]>> = {
  GEN: [{ type: 1, scenario: 1 }],
  PEQ: [{ type: 3, scenario: 1 }],
};

/** Each phrase's words, as a printed invoice shows them (by `${type}.${scenario}`). */
export const PHRASE_TEXTS: Readonly<Record<string, string>> = {
  '1.1': 'Sujeto a pagos trimestrales ISR',
  '3.1': 'No genera derecho a crédito fiscal',
};
