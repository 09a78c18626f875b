// What a reader of a certified invoice's PDF sees: the issuer, the receptor, SAT's numbers, the
// line, subtotal, IVA and total, the phrases of the issuer's regime and SAT's verification link
// with the invoice's facts. Drawn from an invoice held in memory: the drawing is under test here;
// tests/invoices/invoice-documents.test.ts downloads it from the built app.
import { describe, expect, it } from 'vitest';
import type { CertifiedInvoice } from '@/lib/core/invoices/documents';
import type { Issuer } from '@/lib/providers/fel/document';
import { pdfTextLines } from '@/tests/support/pdf-text';
import { renderCreditNotePdf, renderInvoicePdf } from './pdf';

const ISSUER: Issuer = {
  nit: '576937K',
  legalName: 'Servicios de Consulta, S.A.',
  commercialName: 'Consulta Contribuyentes',
  establishmentCode: 1,
  affiliation: 'GEN',
  address: { line: '6a. Avenida 10-20 Zona 9', postalCode: '01009', municipality: 'Guatemala', department: 'Guatemala', country: 'GT' },
};

const INVOICE: CertifiedInvoice = {
  id: 12,
  integrationId: 3,
  documentType: 'FACT',
  uuid: '7A3F01C2-9B44-4E21-8D10-5C6E7F809A1B',
  serie: '7A3F01C2',
  numero: '2605471521',
  certifiedAt: new Date('2026-11-20T15:04:05Z'),
  emittedAt: new Date('2026-11-20T15:04:00Z'),
  certifier: 'infile',
  receptorKind: 'nit',
  receptorId: '910000018',
  receptorName: 'EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA',
  taxableCentavos: 10_000,
  taxCentavos: 1_200,
  totalCentavos: 11_200,
  hasXml: true,
  certifierIdentity: { name: 'INFILE, SOCIEDAD ANONIMA', nit: '12521337' },
  reversal: null,
};

const BASE = 'https://felpub.c.sat.gob.gt/verificador-web/publico/vistas/verificacionDte.jsf';

async function textOf(invoice: CertifiedInvoice, issuer = ISSUER): Promise<string> {
  const pdf = await renderInvoicePdf(invoice, issuer, { serviceName: 'Pasarela de prueba', verificationBaseUrl: BASE });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfTextLines(pdf).join('\n');
}

describe("a certified invoice's PDF", () => {
  it('names the issuer, the receptor, SAT’s numbers, the line and the amounts, the phrase and the verification link', async () => {
    const text = await textOf(INVOICE);
    for (const expected of [
      'Consulta Contribuyentes',
      'Servicios de Consulta, S.A.',
      'NIT del emisor: 576937-K',
      'Factura electrónica',
      '7A3F01C2',
      '2605471521',
      '7A3F01C2-9B44-4E21-8D10-5C6E7F809A1B',
      '20/11/2026, 09:04:05',
      'NIT 91000001-8',
      'EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA',
      'Saldo prepago para consultas de contribuyentes',
      'Subtotal (monto gravable)',
      'Q 100.00',
      'IVA (12 %)',
      'Q 12.00',
      'Q 112.00',
      'Sujeto a pagos trimestrales ISR',
      'Certificador: INFILE, SOCIEDAD ANONIMA, NIT 1252133-7',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // The link may wrap across lines on the page: read it joined.
    expect(text.replaceAll('\n', '')).toContain(`${BASE}?tipo=autorizacion&numero=7A3F01C2-9B44-4E21-8D10-5C6E7F809A1B&emisor=576937K&receptor=910000018&monto=112.00`);
  });

  it('to consumidor final, and from a pequeño contribuyente: CF, no IVA itemized, its own phrase', async () => {
    const text = await textOf(
      { ...INVOICE, documentType: 'FPEQ', receptorKind: 'cf', receptorId: 'CF', receptorName: null, taxableCentavos: 11_200, taxCentavos: 0 },
      { ...ISSUER, affiliation: 'PEQ' },
    );
    expect(text).toContain('Factura pequeño contribuyente electrónica');
    expect(text).toContain('Consumidor Final');
    expect(text).toContain('No genera derecho a crédito fiscal');
    expect(text).not.toContain('IVA (12 %)');
    expect(text).not.toContain('Sujeto a pagos trimestrales ISR');
    expect(text.replaceAll('\n', '')).toContain('receptor=CF&monto=112.00');
  });

  it('voided: ANULADA in large letters under the title, with the day SAT voided it; standing, not a word of it', async () => {
    expect(await textOf(INVOICE)).not.toMatch(/ANULADA|anulad|Nota de crédito/);
    const voided = await textOf({ ...INVOICE, reversal: { standing: 'voided', doneAt: new Date('2026-11-21T16:00:00Z'), creditNote: null, voided: true, replacementInvoiceId: null } });
    const lines = voided.split('\n');
    expect(lines.indexOf('ANULADA')).toBeGreaterThan(lines.indexOf('Factura electrónica'));
    expect(lines.indexOf('ANULADA')).toBeLessThan(lines.indexOf('Documento'));
    expect(voided).toContain('Este documento fue anulado ante SAT el 21/11/2026, 10:00:00: ya no tiene validez fiscal.');
    expect(await textOf({ ...INVOICE, reversal: { standing: 'void_pending', doneAt: null, creditNote: null, voided: true, replacementInvoiceId: null } })).toContain('Anulación en trámite ante SAT');
  });

  it('credited: the credit note’s numbers, and no ANULADA', async () => {
    const creditNote = { uuid: '11111111-2222-4333-8444-555566667777', serie: '11111111', numero: '573785173', hasXml: true };
    const text = await textOf({ ...INVOICE, reversal: { standing: 'credited', doneAt: new Date('2026-11-21T16:00:00Z'), creditNote, voided: false, replacementInvoiceId: null } });
    expect(text).toContain('Nota de crédito 11111111-573785173');
    expect(text.replace(/\s+/g, ' ')).toContain('(UUID 11111111-2222-4333-8444-555566667777)');
    expect(text).not.toContain('ANULADA');
  });

  it('corrected: a void or a credit note that reissued it to another receptor, said so; a printed copy never passes for valid', async () => {
    const voided = await textOf({ ...INVOICE, reversal: { standing: 'corrected', doneAt: new Date('2026-11-21T16:00:00Z'), creditNote: null, voided: true, replacementInvoiceId: 9 } });
    expect(voided.split('\n')).toContain('ANULADA');
    expect(voided.replace(/\s+/g, ' ')).toContain('Anulada ante SAT el 21/11/2026, 10:00:00 al corregir su receptor: otra factura por la misma recarga la reemplaza.');
    const creditNote = { uuid: '11111111-2222-4333-8444-555566667777', serie: '11111111', numero: '573785173', hasXml: true };
    const credited = await textOf({ ...INVOICE, reversal: { standing: 'corrected', doneAt: new Date('2026-11-21T16:00:00Z'), creditNote, voided: false, replacementInvoiceId: 9 } });
    expect(credited).toContain('Nota de crédito 11111111-573785173');
    expect(credited.replace(/\s+/g, ' ')).toContain('(UUID 11111111-2222-4333-8444-555566667777) al corregir su receptor: otra factura por la misma recarga la reemplaza.');
  });

  it('names the certifier as SAT does, and says where to read it when no XML is kept; never a setting\'s value', async () => {
    const text = await textOf({ ...INVOICE, certifierIdentity: null });
    expect(text).toContain('Certificador: consulte el XML certificado');
    expect(text).not.toContain('infile');
  });
});

describe("a certified credit note's PDF (issue 64, point 8)", () => {
  it('names the note, the invoice it references, the receptor, the amounts with IVA apart, the reason and the certifier, in Guatemala time', async () => {
    const pdf = await renderCreditNotePdf(
      {
        id: 41,
        uuid: '1C9E44A0-43DE-4A2B-9F1C-0D2E3F4A5B6C',
        serie: '1C9E44A0',
        numero: '1139082455',
        amountCentavos: 5_600,
        reason: 'Reembolso del pago en línea: pago duplicado',
        certifiedAt: new Date('2026-11-22T17:40:03Z'),
        certifierIdentity: { name: 'INFILE, SOCIEDAD ANONIMA', nit: '12521337' },
        invoice: INVOICE,
      },
      ISSUER,
      { serviceName: 'Pasarela de prueba', verificationBaseUrl: BASE },
    );
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfTextLines(pdf).join('\n');
    for (const expected of [
      'Nota de crédito electrónica',
      '1C9E44A0-43DE-4A2B-9F1C-0D2E3F4A5B6C',
      '22/11/2026, 11:40:03',
      '7A3F01C2-2605471521',
      '7A3F01C2-9B44-4E21-8D10-5C6E7F809A1B',
      'NIT 91000001-8',
      'Monto gravable',
      'Q 50.00',
      'Q 6.00',
      'Q 56.00',
      'Motivo: Reembolso del pago en línea: pago duplicado',
      'Certificador: INFILE, SOCIEDAD ANONIMA, NIT 1252133-7',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text.replaceAll('\n', '')).toContain(`${BASE}?tipo=autorizacion&numero=1C9E44A0-43DE-4A2B-9F1C-0D2E3F4A5B6C&emisor=576937K&receptor=910000018&monto=56.00`);
  });
});
