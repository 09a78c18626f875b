// The XML SAT's FEL regime defines: GTDocumento for a DTE (FACT, FPEQ) and GTAnulacionDocumento for
// a void, from a prepared document (lib/providers/fel/document.ts), amounts as decimal quetzales.
// Unsigned: the certifier signs for the issuer (INFILE's signing as a service) and adds its own
// certification and signature.

import { centavosAsDecimal, CURRENCY } from '../../platform/money';
import { CF_NAME, felDateTime, itemizesIva, receptorId, type DocumentLine, type FelDocument, type NoteReference, type VoidInput } from './document';
import { REQUIRED_PHRASES } from './phrases';
import { renderXmlDocument, type XmlElement } from './xml-writer';

export const DTE_NAMESPACE = 'http://www.sat.gob.gt/dte/fel/0.2.0';
export const VOID_NAMESPACE = 'http://www.sat.gob.gt/dte/fel/0.1.0';
export const DTE_VERSION = '0.1';
/** SAT's complement by which an NCRE references the DTE it corrects (shape unconfirmed: docs/fel.md). */
export const NOTE_REFERENCE_NAMESPACE = 'http://www.sat.gob.gt/face2/ComplementoReferenciaNota/0.1.0';
export const NOTE_REFERENCE_COMPLEMENT_ID = 'ReferenciasNota';
const PREFIX = 'dte';

const el = (name: string, attributes?: XmlElement['attributes'], children?: XmlElement[]): XmlElement => ({ name: `${PREFIX}:${name}`, attributes, children });
const leaf = (name: string, text: string): XmlElement => ({ name: `${PREFIX}:${name}`, text });

/** GTDocumento of a prepared FACT or FPEQ. */
export function documentXml(document: FelDocument): string {
  const { issuer, receptor } = document;
  const withIva = itemizesIva(document.type, issuer.affiliation);
  const receptorAttributes =
    receptor.kind === 'cf'
      ? { IDReceptor: receptorId(receptor), NombreReceptor: CF_NAME }
      : receptor.kind === 'cui'
        ? { IDReceptor: receptor.cui, NombreReceptor: receptor.name, TipoEspecial: 'CUI' }
        : { IDReceptor: receptor.nit, NombreReceptor: receptor.name };
  const totals: XmlElement[] = [
    ...(withIva ? [el('TotalImpuestos', undefined, [el('TotalImpuesto', { NombreCorto: 'IVA', TotalMontoImpuesto: centavosAsDecimal(document.totals.taxCentavos) })])] : []),
    leaf('GranTotal', centavosAsDecimal(document.totals.grandTotalCentavos)),
  ];
  const root = el('GTDocumento', { [`xmlns:${PREFIX}`]: DTE_NAMESPACE, Version: DTE_VERSION }, [
    el('SAT', { ClaseDocumento: 'dte' }, [
      el('DTE', { ID: 'DatosCertificados' }, [
        el('DatosEmision', { ID: 'DatosEmision' }, [
          el('DatosGenerales', { Tipo: document.type, FechaHoraEmision: felDateTime(document.emittedAt), CodigoMoneda: CURRENCY }),
          el(
            'Emisor',
            {
              NITEmisor: issuer.nit,
              NombreEmisor: issuer.legalName,
              CodigoEstablecimiento: issuer.establishmentCode,
              NombreComercial: issuer.commercialName,
              AfiliacionIVA: issuer.affiliation,
            },
            [
              el('DireccionEmisor', undefined, [
                leaf('Direccion', issuer.address.line),
                leaf('CodigoPostal', issuer.address.postalCode),
                leaf('Municipio', issuer.address.municipality),
                leaf('Departamento', issuer.address.department),
                leaf('Pais', issuer.address.country),
              ]),
            ],
          ),
          el('Receptor', receptorAttributes),
          el('Frases', undefined, REQUIRED_PHRASES[issuer.affiliation].map((phrase) => el('Frase', { TipoFrase: phrase.type, CodigoEscenario: phrase.scenario }))),
          el('Items', undefined, document.lines.map((line) => itemXml(line, withIva))),
          el('Totales', undefined, totals),
          ...(document.reference ? [noteReferenceXml(document.reference)] : []),
        ]),
      ]),
    ]),
  ]);
  return renderXmlDocument(root);
}

/** The ReferenciasNota complement: the one DTE an NCRE corrects, its emission day and why. */
function noteReferenceXml(reference: NoteReference): XmlElement {
  return el('Complementos', undefined, [
    el('Complemento', { IDComplemento: NOTE_REFERENCE_COMPLEMENT_ID, NombreComplemento: 'Referencias Nota', URIComplemento: NOTE_REFERENCE_NAMESPACE }, [
      {
        name: 'cno:ReferenciasNota',
        attributes: {
          'xmlns:cno': NOTE_REFERENCE_NAMESPACE,
          Version: '0.0',
          NumeroAutorizacionDocumentoOrigen: reference.uuid,
          FechaEmisionDocumentoOrigen: felDateTime(reference.emittedAt).slice(0, 10),
          MotivoAjuste: reference.reason,
        },
      },
    ]),
  ]);
}

function itemXml(line: DocumentLine, withIva: boolean): XmlElement {
  const { amounts } = line;
  return el('Item', { NumeroLinea: line.number, BienOServicio: line.goodsOrService }, [
    leaf('Cantidad', String(line.quantity)),
    leaf('UnidadMedida', 'UNI'),
    leaf('Descripcion', line.description),
    leaf('PrecioUnitario', centavosAsDecimal(line.unitPriceCentavos)),
    leaf('Precio', centavosAsDecimal(amounts.priceCentavos)),
    leaf('Descuento', centavosAsDecimal(amounts.discountCentavos)),
    ...(withIva
      ? [
          el('Impuestos', undefined, [
            el('Impuesto', undefined, [
              leaf('NombreCorto', 'IVA'),
              // 1: IVA at the general rate (SAT's catalogue of taxable units).
              leaf('CodigoUnidadGravable', '1'),
              leaf('MontoGravable', centavosAsDecimal(amounts.taxableCentavos)),
              leaf('MontoImpuesto', centavosAsDecimal(amounts.taxCentavos)),
            ]),
          ]),
        ]
      : []),
    leaf('Total', centavosAsDecimal(amounts.totalCentavos)),
  ]);
}

/** GTAnulacionDocumento of a prepared void. */
export function voidXml(request: VoidInput): string {
  const root = el('GTAnulacionDocumento', { [`xmlns:${PREFIX}`]: VOID_NAMESPACE, Version: DTE_VERSION }, [
    el('SAT', undefined, [
      el('AnulacionDTE', { ID: 'DatosCertificados' }, [
        el('DatosGenerales', {
          ID: 'DatosAnulacion',
          NumeroDocumentoAAnular: request.uuid,
          NITEmisor: request.issuerNit,
          IDReceptor: request.receptorId,
          FechaEmisionDocumentoAnular: felDateTime(request.originalEmittedAt),
          FechaHoraAnulacion: felDateTime(request.voidedAt),
          MotivoAnulacion: request.reason,
        }),
      ]),
    ]),
  ]);
  return renderXmlDocument(root);
}
