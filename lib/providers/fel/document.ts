// A DTE (documento tributario electrónico) as data, before any certifier sees it: who issues it,
// who buys, its lines and its totals, in integer centavos. prepareDocument checks what SAT checks
// of the data and computes the IVA arithmetic once; the XML writer and every certifier take its
// result, so no two places can disagree on a total. Invalid data is an answer, never an exception.

import { isValidClassicNit, isValidCui, normalizeCui, normalizeNit } from '../../platform/guatemala/identifiers';
import { guatemalanToday, GUATEMALA_OFFSET_HOURS } from '../../platform/time/guatemala-time';

/**
 * FACT: factura of the general IVA regime; FPEQ: factura of a pequeño contribuyente; NCRE: nota de
 * crédito, which references exactly one earlier DTE of the same issuer.
 */
export type DocumentType = 'FACT' | 'FPEQ' | 'NCRE';
/** The issuer's IVA affiliation; it decides the document's type and its required phrases. */
export type IvaAffiliation = 'GEN' | 'PEQ';

/** The invoice each affiliation issues (a credit note is NCRE under either). */
export const DOCUMENT_TYPE_OF_AFFILIATION: Readonly<Record<IvaAffiliation, Exclude<DocumentType, 'NCRE'>>> = { GEN: 'FACT', PEQ: 'FPEQ' };

/** Whether a document itemizes IVA: a FACT, and a credit note of a general-regime issuer. */
export function itemizesIva(type: DocumentType, affiliation: IvaAffiliation): boolean {
  return type === 'FACT' || (type === 'NCRE' && affiliation === 'GEN');
}

/** What an NCRE says of the one DTE it corrects (SAT's ReferenciasNota complement). */
export interface NoteReference {
  /** The DTE's NumeroAutorizacion. */
  uuid: string;
  /** Its FechaHoraEmision: the complement names its day. */
  emittedAt: Date;
  /** MotivoAjuste, 1 to 255 characters. */
  reason: string;
}

/** IVA is 12 % and prices include it. */
export const IVA_RATE_PERCENT = 12;
/** SAT refuses a consumidor final (CF) receptor from this GranTotal up: Q 2,500.00. */
export const CF_LIMIT_CENTAVOS = 250_000;
/** The literal SAT reads as "consumidor final", and the name it carries. */
export const CF_ID = 'CF';
export const CF_NAME = 'Consumidor Final';

// Bounds that keep every sum a safe integer and every text within what the schema takes
// (lengths unconfirmed against the XSD: generous rather than tight).
const MAX_LINE_CENTAVOS = 100_000_000_000; // Q 1,000 million
const MAX_QUANTITY = 1_000_000;
const MAX_LINES = 500;
const MAX_NAME_LENGTH = 255;
const MAX_DESCRIPTION_LENGTH = 1_000;
/** A void's MotivoAnulacion and a credit note's MotivoAjuste: SAT takes 1 to 255 characters. */
export const MAX_VOID_REASON_LENGTH = 255;
const UUID_PATTERN = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
// XML 1.0 cannot carry these (tab, line feed and carriage return it can).
const UNREPRESENTABLE_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface IssuerAddress {
  line: string;
  postalCode: string;
  municipality: string;
  department: string;
  /** ISO 3166 alpha-2; GT for every issuer here. */
  country: string;
}

export interface Issuer {
  nit: string;
  legalName: string;
  commercialName: string;
  /** SAT's number of the establishment that sells, 1 to 9999. */
  establishmentCode: number;
  affiliation: IvaAffiliation;
  address: IssuerAddress;
}

/** The buyer: a NIT with SAT's name for it, a CUI with the person's name, or consumidor final. */
export type Receptor = { kind: 'nit'; nit: string; name: string } | { kind: 'cui'; cui: string; name: string } | { kind: 'cf' };

export interface DocumentLineInput {
  /** B: a good; S: a service. */
  goodsOrService: 'B' | 'S';
  quantity: number;
  description: string;
  /** IVA included. */
  unitPriceCentavos: number;
  discountCentavos?: number;
}

export interface DocumentInput {
  type: DocumentType;
  issuer: Issuer;
  receptor: Receptor;
  lines: DocumentLineInput[];
  emittedAt: Date;
  /** An NCRE's one reference; no other type carries one. */
  reference?: NoteReference;
}

export interface LineAmounts {
  /** quantity × unit price. */
  priceCentavos: number;
  discountCentavos: number;
  /** price − discount: what the buyer pays for the line, IVA included. */
  totalCentavos: number;
  /** round(total / 1.12): the line's taxable base (FACT only; FPEQ itemizes no IVA). */
  taxableCentavos: number;
  /** total − taxable. */
  taxCentavos: number;
}

export interface DocumentLine extends DocumentLineInput {
  number: number;
  discountCentavos: number;
  amounts: LineAmounts;
}

export interface DocumentTotals {
  /** The lines' IVA added up (0 on an FPEQ, which itemizes none). */
  taxCentavos: number;
  grandTotalCentavos: number;
}

/** A document whose data SAT would accept, with its arithmetic done: what the XML and certifiers take. */
export interface FelDocument {
  type: DocumentType;
  issuer: Issuer;
  /** Identifiers normalized: NIT without hyphen and with upper-case K, CUI without spaces. */
  receptor: Receptor;
  lines: DocumentLine[];
  totals: DocumentTotals;
  emittedAt: Date;
  /** An NCRE's reference (uuid upper-case, reason trimmed); null for every other type. */
  reference: NoteReference | null;
}

export type DocumentProblem =
  | { code: 'type_does_not_match_affiliation'; type: DocumentType; affiliation: IvaAffiliation }
  | { code: 'reference_invalid' }
  | { code: 'issuer_nit_invalid' }
  | { code: 'establishment_code_invalid' }
  | { code: 'text_invalid'; field: string }
  | { code: 'no_lines' }
  | { code: 'too_many_lines'; max: number }
  | { code: 'line_quantity_invalid'; line: number }
  | { code: 'line_amount_invalid'; line: number }
  | { code: 'emission_time_invalid' }
  | ReceptorProblem;

export type ReceptorProblem =
  | { code: 'receptor_nit_invalid' }
  | { code: 'receptor_cui_invalid' }
  | { code: 'receptor_name_invalid' }
  | { code: 'cf_over_limit'; limitCentavos: number };

export type PreparedDocument = { ok: true; document: FelDocument } | { ok: false; problems: DocumentProblem[] };
export type ReceptorCheck = { ok: true; receptor: Receptor } | { ok: false; problem: ReceptorProblem };

/**
 * The taxable base of an amount with IVA included: total / 1.12 rounded to the centavo, half up,
 * in integers (total × 100 / 112, rounded, is ⌊(200·total + 112) / 224⌋).
 */
export function taxableOfTotal(totalCentavos: number): number {
  return Math.floor((totalCentavos * 200 + 112) / 224);
}

/** One line's amounts. `withIva` false (FPEQ): no tax is itemized, the taxable base is the total. */
export function lineAmounts(line: Pick<DocumentLineInput, 'quantity' | 'unitPriceCentavos' | 'discountCentavos'>, withIva = true): LineAmounts {
  const priceCentavos = line.quantity * line.unitPriceCentavos;
  const discountCentavos = line.discountCentavos ?? 0;
  const totalCentavos = priceCentavos - discountCentavos;
  const taxableCentavos = withIva ? taxableOfTotal(totalCentavos) : totalCentavos;
  return { priceCentavos, discountCentavos, totalCentavos, taxableCentavos, taxCentavos: totalCentavos - taxableCentavos };
}

/** The document's totals: the lines' IVA and totals added up, never recomputed from the sum. */
export function documentTotals(lines: ReadonlyArray<{ amounts: LineAmounts }>): DocumentTotals {
  return {
    taxCentavos: lines.reduce((sum, line) => sum + line.amounts.taxCentavos, 0),
    grandTotalCentavos: lines.reduce((sum, line) => sum + line.amounts.totalCentavos, 0),
  };
}

/**
 * Checks a receptor for a document of this grand total: a NIT's mod-11 check character, a CUI's
 * 13 digits and check digit, a name where SAT wants one, and CF only below Q 2,500.00.
 */
export function checkReceptor(receptor: Receptor, grandTotalCentavos: number): ReceptorCheck {
  switch (receptor.kind) {
    case 'cf':
      return grandTotalCentavos >= CF_LIMIT_CENTAVOS ? { ok: false, problem: { code: 'cf_over_limit', limitCentavos: CF_LIMIT_CENTAVOS } } : { ok: true, receptor };
    case 'nit': {
      if (!isValidClassicNit(receptor.nit)) return { ok: false, problem: { code: 'receptor_nit_invalid' } };
      if (!isAcceptableText(receptor.name, MAX_NAME_LENGTH)) return { ok: false, problem: { code: 'receptor_name_invalid' } };
      return { ok: true, receptor: { kind: 'nit', nit: normalizeNit(receptor.nit), name: receptor.name.trim() } };
    }
    case 'cui': {
      if (!isValidCui(receptor.cui)) return { ok: false, problem: { code: 'receptor_cui_invalid' } };
      if (!isAcceptableText(receptor.name, MAX_NAME_LENGTH)) return { ok: false, problem: { code: 'receptor_name_invalid' } };
      return { ok: true, receptor: { kind: 'cui', cui: normalizeCui(receptor.cui), name: receptor.name.trim() } };
    }
  }
}

/** Checks the data and does the arithmetic; every problem found is listed, not only the first. */
export function prepareDocument(input: DocumentInput): PreparedDocument {
  const problems: DocumentProblem[] = [];
  const { issuer } = input;
  if (input.type !== 'NCRE' && DOCUMENT_TYPE_OF_AFFILIATION[issuer.affiliation] !== input.type) {
    problems.push({ code: 'type_does_not_match_affiliation', type: input.type, affiliation: issuer.affiliation });
  }
  // An NCRE references exactly one earlier DTE; nothing else references any.
  const { reference } = input;
  if (
    (input.type === 'NCRE') !== (reference !== undefined) ||
    (reference !== undefined &&
      (!UUID_PATTERN.test(reference.uuid.trim().toUpperCase()) || Number.isNaN(reference.emittedAt.getTime()) || !isAcceptableText(reference.reason, MAX_VOID_REASON_LENGTH)))
  ) {
    problems.push({ code: 'reference_invalid' });
  }
  if (!isValidClassicNit(issuer.nit)) problems.push({ code: 'issuer_nit_invalid' });
  if (!Number.isInteger(issuer.establishmentCode) || issuer.establishmentCode < 1 || issuer.establishmentCode > 9999) {
    problems.push({ code: 'establishment_code_invalid' });
  }
  const texts: Array<[string, string]> = [
    ['issuer.legalName', issuer.legalName],
    ['issuer.commercialName', issuer.commercialName],
    ['issuer.address.line', issuer.address.line],
    ['issuer.address.postalCode', issuer.address.postalCode],
    ['issuer.address.municipality', issuer.address.municipality],
    ['issuer.address.department', issuer.address.department],
    ['issuer.address.country', issuer.address.country],
  ];
  for (const [field, text] of texts) if (!isAcceptableText(text, MAX_NAME_LENGTH)) problems.push({ code: 'text_invalid', field });
  if (Number.isNaN(input.emittedAt.getTime())) problems.push({ code: 'emission_time_invalid' });

  if (input.lines.length === 0) problems.push({ code: 'no_lines' });
  if (input.lines.length > MAX_LINES) problems.push({ code: 'too_many_lines', max: MAX_LINES });
  const withIva = itemizesIva(input.type, issuer.affiliation);
  const lines: DocumentLine[] = [];
  input.lines.forEach((line, index) => {
    const number = index + 1;
    const discountCentavos = line.discountCentavos ?? 0;
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_QUANTITY) {
      problems.push({ code: 'line_quantity_invalid', line: number });
      return;
    }
    const price = line.quantity * line.unitPriceCentavos;
    if (
      !Number.isInteger(line.unitPriceCentavos) || line.unitPriceCentavos < 1 ||
      !Number.isInteger(discountCentavos) || discountCentavos < 0 ||
      price > MAX_LINE_CENTAVOS || price - discountCentavos < 1
    ) {
      problems.push({ code: 'line_amount_invalid', line: number });
      return;
    }
    if (!isAcceptableText(line.description, MAX_DESCRIPTION_LENGTH)) problems.push({ code: 'text_invalid', field: `lines[${number}].description` });
    if (line.goodsOrService !== 'B' && line.goodsOrService !== 'S') problems.push({ code: 'text_invalid', field: `lines[${number}].goodsOrService` });
    lines.push({ ...line, number, discountCentavos, amounts: lineAmounts({ ...line, discountCentavos }, withIva) });
  });

  const totals = documentTotals(lines);
  const receptor = checkReceptor(input.receptor, totals.grandTotalCentavos);
  if (!receptor.ok) problems.push(receptor.problem);
  if (problems.length > 0 || !receptor.ok) return { ok: false, problems };
  return {
    ok: true,
    document: {
      type: input.type,
      issuer: { ...issuer, nit: normalizeNit(issuer.nit) },
      receptor: receptor.receptor,
      lines,
      totals,
      emittedAt: input.emittedAt,
      reference: reference === undefined ? null : { uuid: reference.uuid.trim().toUpperCase(), emittedAt: reference.emittedAt, reason: reference.reason.trim() },
    },
  };
}

/** The receptor's IDReceptor as SAT reads it. */
export function receptorId(receptor: Receptor): string {
  return receptor.kind === 'cf' ? CF_ID : receptor.kind === 'nit' ? receptor.nit : receptor.cui;
}

/** The Guatemalan calendar day a document was emitted on (YYYY-MM-DD): what a lookup by identifier names. */
export function emissionDay(document: Pick<FelDocument, 'emittedAt'>): string {
  return guatemalanToday(document.emittedAt);
}

/** An instant as FEL writes it: Guatemala's wall time with its offset, `2026-11-27T08:31:05-06:00`. */
export function felDateTime(instant: Date): string {
  const wall = new Date(instant.getTime() + GUATEMALA_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 19);
  const sign = GUATEMALA_OFFSET_HOURS < 0 ? '-' : '+';
  return `${wall}${sign}${String(Math.abs(GUATEMALA_OFFSET_HOURS)).padStart(2, '0')}:00`;
}

function isAcceptableText(text: string, maxLength: number): boolean {
  const trimmed = text.trim();
  return trimmed.length >= 1 && trimmed.length <= maxLength && !UNREPRESENTABLE_TEXT.test(trimmed);
}

/** A void: the issuer cancels one certified DTE, with a reason. It never edits the DTE. */
export interface VoidInput {
  /** The DTE's NumeroAutorizacion. */
  uuid: string;
  issuerNit: string;
  /** IDReceptor of the voided DTE (NIT, CUI or CF), as it was written there. */
  receptorId: string;
  /** FechaHoraEmision of the voided DTE. */
  originalEmittedAt: Date;
  voidedAt: Date;
  /** 1 to 255 characters. */
  reason: string;
}

export type VoidProblem = { code: 'uuid_invalid' } | { code: 'issuer_nit_invalid' } | { code: 'receptor_invalid' } | { code: 'reason_invalid' } | { code: 'time_invalid' };
export type PreparedVoid = { ok: true; request: VoidInput } | { ok: false; problems: VoidProblem[] };


export function prepareVoid(input: VoidInput): PreparedVoid {
  const problems: VoidProblem[] = [];
  const uuid = input.uuid.trim().toUpperCase();
  if (!UUID_PATTERN.test(uuid)) problems.push({ code: 'uuid_invalid' });
  if (!isValidClassicNit(input.issuerNit)) problems.push({ code: 'issuer_nit_invalid' });
  const receptorId = input.receptorId.trim().toUpperCase();
  if (receptorId !== CF_ID && !isValidClassicNit(receptorId) && !isValidCui(receptorId)) problems.push({ code: 'receptor_invalid' });
  if (!isAcceptableText(input.reason, MAX_VOID_REASON_LENGTH)) problems.push({ code: 'reason_invalid' });
  if (Number.isNaN(input.originalEmittedAt.getTime()) || Number.isNaN(input.voidedAt.getTime())) problems.push({ code: 'time_invalid' });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, request: { ...input, uuid, issuerNit: normalizeNit(input.issuerNit), receptorId: normalizeNit(receptorId), reason: input.reason.trim() } };
}

/** Serie and Número as SAT derives them from the authorization UUID: its first 8 hex digits, and the next 8 as a decimal number. */
export function serieAndNumero(uuid: string): { serie: string; numero: string } {
  const hex = uuid.replace(/-/g, '').toUpperCase();
  return { serie: hex.slice(0, 8), numero: String(Number.parseInt(hex.slice(8, 16), 16)) };
}
