// The XML read back by a real parser: the nodes SAT's schema names, the totals, and escaping.

import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { prepareDocument, prepareVoid, type DocumentInput, type FelDocument } from './document';
import { SAMPLE_ISSUER, sampleTopUpDocument } from '@/tests/support/fel-examples';
import { DTE_NAMESPACE, documentXml, VOID_NAMESPACE, voidXml } from './xml';
import { escapeXmlAttribute, escapeXmlText } from './xml-writer';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, parseAttributeValue: false, isArray: (name) => ['dte:Item', 'dte:Frase'].includes(name) });
type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function prepared(input: DocumentInput): FelDocument {
  const result = prepareDocument(input);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.document;
}

const emittedAt = new Date('2026-11-27T14:30:00Z');

describe('GTDocumento', () => {
  it('has the namespace, version and the nodes of a FACT, with its totals', () => {
    const document = prepared({
      ...sampleTopUpDocument(100, { kind: 'nit', nit: '576937-K', name: 'PEREZ LOPEZ, JUAN' }, emittedAt),
      lines: [
        { goodsOrService: 'S', quantity: 1, description: 'Saldo prepago', unitPriceCentavos: 100 },
        { goodsOrService: 'S', quantity: 2, description: 'Otro', unitPriceCentavos: 124_999, discountCentavos: 1 },
      ],
    });
    const xml = documentXml(document);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const root = parser.parse(xml)['dte:GTDocumento'] as Node;
    expect(root['@xmlns:dte']).toBe(DTE_NAMESPACE);
    expect(root['@Version']).toBe('0.1');
    expect(root['dte:SAT']['@ClaseDocumento']).toBe('dte');
    const dte = root['dte:SAT']['dte:DTE'];
    expect(dte['@ID']).toBe('DatosCertificados');
    const emision = dte['dte:DatosEmision'];
    expect(emision['@ID']).toBe('DatosEmision');
    expect(emision['dte:DatosGenerales']).toEqual({ '@Tipo': 'FACT', '@FechaHoraEmision': '2026-11-27T08:30:00-06:00', '@CodigoMoneda': 'GTQ' });
    expect(emision['dte:Emisor']).toMatchObject({ '@NITEmisor': '576937K', '@NombreEmisor': SAMPLE_ISSUER.legalName, '@CodigoEstablecimiento': '1', '@AfiliacionIVA': 'GEN' });
    expect(emision['dte:Emisor']['dte:DireccionEmisor']['dte:Pais']).toBe('GT');
    expect(emision['dte:Receptor']).toEqual({ '@IDReceptor': '576937K', '@NombreReceptor': 'PEREZ LOPEZ, JUAN' });
    expect(emision['dte:Frases']['dte:Frase']).toEqual([{ '@TipoFrase': '1', '@CodigoEscenario': '1' }]);
    const items = emision['dte:Items']['dte:Item'] as Node[];
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ '@NumeroLinea': '1', '@BienOServicio': 'S', 'dte:Cantidad': '1', 'dte:Descripcion': 'Saldo prepago', 'dte:PrecioUnitario': '1.00', 'dte:Precio': '1.00', 'dte:Descuento': '0.00', 'dte:Total': '1.00' });
    expect(items[0]!['dte:Impuestos']['dte:Impuesto']).toEqual({ 'dte:NombreCorto': 'IVA', 'dte:CodigoUnidadGravable': '1', 'dte:MontoGravable': '0.89', 'dte:MontoImpuesto': '0.11' });
    expect(items[1]).toMatchObject({ 'dte:Cantidad': '2', 'dte:Precio': '2499.98', 'dte:Descuento': '0.01', 'dte:Total': '2499.97' });
    expect(items[1]!['dte:Impuestos']['dte:Impuesto']).toMatchObject({ 'dte:MontoGravable': '2232.12', 'dte:MontoImpuesto': '267.85' });
    expect(emision['dte:Totales']).toEqual({ 'dte:TotalImpuestos': { 'dte:TotalImpuesto': { '@NombreCorto': 'IVA', '@TotalMontoImpuesto': '267.96' } }, 'dte:GranTotal': '2500.97' });
  });

  it('marks a CUI receptor and writes CF as consumidor final', () => {
    const cui = parser.parse(documentXml(prepared(sampleTopUpDocument(100, { kind: 'cui', cui: '1587 56444 0904', name: 'Ana' }, emittedAt))));
    expect(cui['dte:GTDocumento']['dte:SAT']['dte:DTE']['dte:DatosEmision']['dte:Receptor']).toEqual({ '@IDReceptor': '1587564440904', '@NombreReceptor': 'Ana', '@TipoEspecial': 'CUI' });
    const cf = parser.parse(documentXml(prepared(sampleTopUpDocument(100, { kind: 'cf' }, emittedAt))));
    expect(cf['dte:GTDocumento']['dte:SAT']['dte:DTE']['dte:DatosEmision']['dte:Receptor']).toEqual({ '@IDReceptor': 'CF', '@NombreReceptor': 'Consumidor Final' });
  });

  it('writes an FPEQ with its phrase and without IVA', () => {
    const xml = documentXml(prepared({ ...sampleTopUpDocument(10_000, { kind: 'cf' }, emittedAt), type: 'FPEQ', issuer: { ...SAMPLE_ISSUER, affiliation: 'PEQ' } }));
    const emision = parser.parse(xml)['dte:GTDocumento']['dte:SAT']['dte:DTE']['dte:DatosEmision'] as Node;
    expect(emision['dte:DatosGenerales']['@Tipo']).toBe('FPEQ');
    expect(emision['dte:Frases']['dte:Frase']).toEqual([{ '@TipoFrase': '3', '@CodigoEscenario': '1' }]);
    expect(emision['dte:Items']['dte:Item'][0]['dte:Impuestos']).toBeUndefined();
    expect(emision['dte:Totales']).toEqual({ 'dte:GranTotal': '100.00' });
  });

  it('escapes what the data carries, and reads back as it was', () => {
    const name = `O'Brien & Hijos <"S.A.">\nZona 1`;
    const xml = documentXml(prepared({ ...sampleTopUpDocument(100, { kind: 'nit', nit: '576937K', name }, emittedAt), lines: [{ goodsOrService: 'S', quantity: 1, description: '</dte:Descripcion><x>&amp;', unitPriceCentavos: 100 }] }));
    const emision = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, processEntities: true, htmlEntities: true }).parse(xml)['dte:GTDocumento']['dte:SAT']['dte:DTE']['dte:DatosEmision'] as Node;
    expect(emision['dte:Receptor']['@NombreReceptor']).toBe(name);
    expect(emision['dte:Items']['dte:Item']['dte:Descripcion']).toBe('</dte:Descripcion><x>&amp;');
    expect(escapeXmlText('a\u0000b<')).toBe('ab&lt;');
    expect(escapeXmlAttribute(`"'\t`)).toBe('&quot;&apos;&#9;');
  });
});

describe('GTAnulacionDocumento', () => {
  it('names the document to void, the parties, the dates and the reason', () => {
    const request = prepareVoid({
      uuid: 'a1b2c3d4-0000-0010-8000-00aa00bb00cc',
      issuerNit: '576937-K',
      receptorId: 'CF',
      originalEmittedAt: emittedAt,
      voidedAt: new Date('2026-11-28T16:00:00Z'),
      reason: 'Receptor equivocado & corregido',
    });
    if (!request.ok) throw new Error('void not prepared');
    const root = parser.parse(voidXml(request.request))['dte:GTAnulacionDocumento'] as Node;
    expect(root['@xmlns:dte']).toBe(VOID_NAMESPACE);
    expect(root['@Version']).toBe('0.1');
    expect(root['dte:SAT']['dte:AnulacionDTE']['@ID']).toBe('DatosCertificados');
    expect(root['dte:SAT']['dte:AnulacionDTE']['dte:DatosGenerales']).toEqual({
      '@ID': 'DatosAnulacion',
      '@NumeroDocumentoAAnular': 'A1B2C3D4-0000-0010-8000-00AA00BB00CC',
      '@NITEmisor': '576937K',
      '@IDReceptor': 'CF',
      '@FechaEmisionDocumentoAnular': '2026-11-27T08:30:00-06:00',
      '@FechaHoraAnulacion': '2026-11-28T10:00:00-06:00',
      '@MotivoAnulacion': 'Receptor equivocado & corregido',
    });
  });
});
