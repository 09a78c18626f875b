// A sample issuer and top-up document, for tests and for trying the certifier simulator by hand.

import type { DocumentInput, Issuer, Receptor } from '@/lib/providers/fel/document';

export const SAMPLE_ISSUER: Issuer = {
  nit: '576937-K',
  legalName: 'Servicios de Consulta, S.A.',
  commercialName: 'Consulta Contribuyentes',
  establishmentCode: 1,
  affiliation: 'GEN',
  address: { line: '6a. Avenida 10-20 Zona 9', postalCode: '01009', municipality: 'Guatemala', department: 'Guatemala', country: 'GT' },
};

/** The one line of a top-up's invoice. */
export const TOP_UP_DESCRIPTION = 'Saldo prepago para consultas de contribuyentes';

/** A top-up invoice of `totalCentavos` (IVA included) to `receptor`, emitted at `emittedAt`. */
export function sampleTopUpDocument(totalCentavos: number, receptor: Receptor = { kind: 'cf' }, emittedAt = new Date()): DocumentInput {
  return {
    type: 'FACT',
    issuer: SAMPLE_ISSUER,
    receptor,
    lines: [{ goodsOrService: 'S', quantity: 1, description: TOP_UP_DESCRIPTION, unitPriceCentavos: totalCentavos }],
    emittedAt,
  };
}
