// The certifier simulator's own checks over raw HTTP: what it refuses in a DTE, a used identifier,
// the count per identifier, the quota, the void deadline and how faults are chosen.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDocument, type FelDocument } from '../lib/providers/fel/document';
import { sampleTopUpDocument, SAMPLE_ISSUER } from '../tests/support/fel-examples';
import { documentXml, voidXml } from '../lib/providers/fel/xml';
import { prepareVoid } from '../lib/providers/fel/document';
import { FEL_SIM_DEV_CREDENTIALS, FEL_SIM_PATHS, FEL_SIM_RECEPTORS, parseFelFaultSpec, voidDeadline } from './fel';
import { FAULT_HEADER } from './faults';
import { startSimulator, type RunningSimulator } from './server';

let simulator: RunningSimulator;
let sequence = 0;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await simulator.close();
});

const signing = {
  UsuarioFirma: FEL_SIM_DEV_CREDENTIALS.signingUser,
  LlaveFirma: FEL_SIM_DEV_CREDENTIALS.signingKey,
  UsuarioApi: FEL_SIM_DEV_CREDENTIALS.apiUser,
  LlaveApi: FEL_SIM_DEV_CREDENTIALS.apiKey,
};

interface InfileAnswer {
  resultado: boolean;
  fecha: string;
  descripcion: string;
  uuid: string;
  serie: string;
  numero: string;
  xml_certificado: string;
  descripcion_errores: Array<{ validacion: string; mensaje_error: string }>;
}

async function certify(xml: string, options: { identifier?: string; headers?: Record<string, string>; on?: RunningSimulator } = {}) {
  const target = options.on ?? simulator;
  const identifier = options.identifier ?? `sim-${++sequence}`;
  const response = await fetch(`${target.url}/fel${FEL_SIM_PATHS.certify}`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml', ...signing, identificador: identifier, ...options.headers },
    body: xml,
  });
  const text = await response.text();
  return { status: response.status, text, identifier, body: parseOrNull(text) as InfileAnswer };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function prepared(total = 11_200, receptor: Parameters<typeof sampleTopUpDocument>[1] = { kind: 'cf' }, emittedAt = new Date()): FelDocument {
  const result = prepareDocument(sampleTopUpDocument(total, receptor, emittedAt));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.document;
}

const codes = (answer: InfileAnswer) => answer.descripcion_errores.map((error) => error.validacion);

describe('what the certifier checks', () => {
  it('certifies a correct document', async () => {
    const { body, status } = await certify(documentXml(prepared()));
    expect(status).toBe(200);
    expect(body).toMatchObject({ resultado: true, serie: body.uuid.slice(0, 8) });
    expect(Buffer.from(body.xml_certificado, 'base64').toString('utf8')).toContain('<dte:Certificacion>');
  });

  it('answers as a certifier does: FechaHoraCertificacion in Guatemala time (-06:00, as SAT\'s pattern wants, never Z) and the certifier\'s ds:Signature (issue 64, point 13)', async () => {
    const { body } = await certify(documentXml(prepared()));
    const xml = Buffer.from(body.xml_certificado, 'base64').toString('utf8');
    const time = /<dte:FechaHoraCertificacion>([^<]+)<\/dte:FechaHoraCertificacion>/.exec(xml)?.[1];
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-06:00$/);
    // The same instant as the answer's own time, to the second.
    expect(Math.abs(new Date(time!).getTime() - new Date(body.fecha).getTime())).toBeLessThan(1_000);
    expect(xml).toMatch(/<ds:Signature xmlns:ds="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"[^>]*>.*<ds:SignatureValue>[A-Za-z0-9+/=]+<\/ds:SignatureValue><\/ds:Signature><\/dte:GTDocumento>$/s);
  });

  it('refuses a wrong IVA on a line and a wrong IVA total', async () => {
    const xml = documentXml(prepared(100));
    expect(xml).toContain('<dte:MontoImpuesto>0.11</dte:MontoImpuesto>');
    const line = await certify(xml.replace('<dte:MontoImpuesto>0.11</dte:MontoImpuesto>', '<dte:MontoImpuesto>0.12</dte:MontoImpuesto>'));
    expect(codes(line.body)).toEqual(['FEL_IVA001', 'FEL_TOT002']);
    const total = await certify(xml.replace('TotalMontoImpuesto="0.11"', 'TotalMontoImpuesto="0.12"'));
    expect(line.body.resultado).toBe(false);
    expect(codes(total.body)).toEqual(['FEL_TOT002']);
    const grand = await certify(xml.replace('<dte:GranTotal>1.00</dte:GranTotal>', '<dte:GranTotal>1.01</dte:GranTotal>'));
    expect(codes(grand.body)).toEqual(['FEL_TOT001']);
    expect(simulator.fel.certificationCount(line.identifier) + simulator.fel.certificationCount(total.identifier)).toBe(0);
  });

  it('refuses CF at Q 2,500.00 and accepts it at Q 2,499.99', async () => {
    const over = prepared(250_000, { kind: 'nit', nit: FEL_SIM_RECEPTORS[0].nit, name: FEL_SIM_RECEPTORS[0].name });
    const refused = await certify(documentXml({ ...over, receptor: { kind: 'cf' } }));
    expect(refused.body.descripcion_errores).toEqual([expect.objectContaining({ validacion: 'FEL_RCP002', mensaje_error: 'Consumidor final (CF) no se admite con un total de Q 2,500.00 o más.' })]);
    expect((await certify(documentXml(prepared(249_999)))).body.resultado).toBe(true);
  });

  it('refuses a receptor NIT with a bad check digit, an invalid CUI, an unknown NIT and a name that does not match', async () => {
    const [company] = FEL_SIM_RECEPTORS;
    const xml = documentXml(prepared(100, { kind: 'nit', nit: company.nit, name: company.name }));
    expect(codes((await certify(xml.replace(`IDReceptor="${company.nit}"`, 'IDReceptor="910000019"'))).body)).toEqual(['FEL_RCP001']);
    expect(codes((await certify(xml.replace(`IDReceptor="${company.nit}"`, 'IDReceptor="900000015"'))).body)).toEqual(['FEL_RCP005']);
    expect(codes((await certify(xml.replace('NombreReceptor="EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA"', 'NombreReceptor="OTRA"'))).body)).toEqual(['FEL_RCP004']);
    // Case, commas and spaces aside, the name matches.
    expect((await certify(xml.replace('NombreReceptor="EMPRESA DE PRUEBA FEL, SOCIEDAD ANONIMA"', 'NombreReceptor="Empresa de Prueba FEL Sociedad Anonima"'))).body.resultado).toBe(true);
    const cui = documentXml(prepared(100, { kind: 'cui', cui: '1587564440904', name: 'Ana' }));
    expect(codes((await certify(cui.replace('IDReceptor="1587564440904"', 'IDReceptor="1587564450904"'))).body)).toEqual(['FEL_RCP003']);
  });

  it('refuses another namespace, another version, a missing node and a missing phrase', async () => {
    const xml = documentXml(prepared());
    expect(codes((await certify(xml.replace('fel/0.2.0', 'fel/0.1.0'))).body)).toEqual(['FEL_XML001']);
    expect(codes((await certify(xml.replace('Version="0.1"', 'Version="0.2"'))).body)).toEqual(['FEL_XML001']);
    expect(codes((await certify('no es xml <')).body)).toEqual(['FEL_XML001']);
    expect(codes((await certify(xml.replace(/<dte:Totales>.*<\/dte:Totales>/, ''))).body)).toEqual(['FEL_XML002', 'FEL_XML002']);
    expect(codes((await certify(xml.replace(/<dte:Frases>.*<\/dte:Frases>/, '<dte:Frases/>'))).body)).toEqual(['FEL_FRA001']);
    expect(codes((await certify(xml.replace('AfiliacionIVA="GEN"', 'AfiliacionIVA="PEQ"'))).body)).toContain('FEL_XML002');
  });

  it('accepts an FPEQ of a pequeño contribuyente', async () => {
    const result = prepareDocument({ ...sampleTopUpDocument(10_000), type: 'FPEQ', issuer: { ...SAMPLE_ISSUER, affiliation: 'PEQ' } });
    if (!result.ok) throw new Error('not prepared');
    expect((await certify(documentXml(result.document))).body.resultado).toBe(true);
  });

  it('refuses an emission more than 5 days before, or in a later month', async () => {
    const now = new Date('2026-11-20T18:00:00Z');
    const clocked = await startSimulator({ port: 0, fel: { now: () => now } });
    try {
      const at = (iso: string) => certify(documentXml(prepared(100, { kind: 'cf' }, new Date(iso))), { on: clocked });
      expect((await at('2026-11-15T19:00:00Z')).body.resultado).toBe(true); // 4 days 23 hours before
      expect(codes((await at('2026-11-15T17:00:00Z')).body)).toEqual(['FEL_FEC001']);
      expect((await at('2026-11-30T12:00:00Z')).body.resultado).toBe(true); // later, same month
      expect(codes((await at('2026-12-01T12:00:00Z')).body)).toEqual(['FEL_FEC002']);
    } finally {
      await clocked.close();
    }
  });

  it('refuses wrong credentials with FEL_AUT001', async () => {
    const { body } = await certify(documentXml(prepared()), { headers: { LlaveFirma: 'otra' } });
    expect(codes(body)).toEqual(['FEL_AUT001']);
  });
});

describe('one certification per identifier', () => {
  it('answers a used identifier with the same numbers and counts it once', async () => {
    const xml = documentXml(prepared());
    const first = await certify(xml);
    const second = await certify(documentXml(prepared(500)), { identifier: first.identifier });
    expect(second.body).toMatchObject({ descripcion: 'Documento enviado previamente.', uuid: first.body.uuid, serie: first.body.serie, numero: first.body.numero });
    expect(simulator.fel.certificationCount(first.identifier)).toBe(1);
    const counted = await fetch(`${simulator.url}/fel${FEL_SIM_PATHS.certifications}?identificador=${first.identifier}`);
    expect(await counted.json()).toEqual({ identificador: first.identifier, certificaciones: 1, anulaciones: 0 });
    const all = (await (await fetch(`${simulator.url}/fel${FEL_SIM_PATHS.certifications}`)).json()) as { certificaciones: Record<string, number>; total: number };
    expect(all.certificaciones[first.identifier]).toBe(1);
    expect(all.total).toBe(simulator.fel.certifications().length);
  });

  it('answers the daily quota once the plan’s documents are spent', async () => {
    const quota = await startSimulator({ port: 0, fel: { dailyQuota: 1 } });
    try {
      expect((await certify(documentXml(prepared()), { on: quota })).body.resultado).toBe(true);
      const refused = await certify(documentXml(prepared()), { on: quota });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ resultado: false, control_emision: { Saldo: 0, Creditos: 1 } });
    } finally {
      await quota.close();
    }
  });
});

describe('faults', () => {
  it('takes a fault from the header for one request, and refuses an unknown one', async () => {
    const html = await certify(documentXml(prepared()), { headers: { [FAULT_HEADER]: 'html_500' } });
    expect(html.status).toBe(500);
    expect(html.text).toContain('<html>');
    expect(simulator.fel.certificationCount(html.identifier)).toBe(0);
    const unknown = await certify(documentXml(prepared()), { headers: { [FAULT_HEADER]: 'slow' } });
    expect(unknown.status).toBe(400);
  });

  it('certifies before dropping the connection or cutting the JSON', async () => {
    const dropped = `sim-drop-${++sequence}`;
    await expect(certify(documentXml(prepared()), { identifier: dropped, headers: { [FAULT_HEADER]: 'drop_after_certify' } })).rejects.toThrow();
    expect(simulator.fel.certificationCount(dropped)).toBe(1);
    const cut = await certify(documentXml(prepared()), { headers: { [FAULT_HEADER]: 'invalid_json' } });
    expect(() => JSON.parse(cut.text)).toThrow();
    expect(simulator.fel.certificationCount(cut.identifier)).toBe(1);
  });

  it('applies configured faults the given number of times, to the given operations', async () => {
    simulator.fel.setFaults([{ fault: 'retryable', times: 2 }]);
    const xml = documentXml(prepared());
    expect(codes((await certify(xml)).body)).toEqual(['FEL_GEN104']);
    expect(codes((await certify(xml)).body)).toEqual(['FEL_GEN104']);
    expect((await certify(xml)).body.resultado).toBe(true);
    simulator.fel.setFaults([]);
  });

  it('reads SIMULATOR_FEL_FAULT', () => {
    expect(parseFelFaultSpec('drop_after_certify@0.2, html_500')).toEqual([
      { fault: 'drop_after_certify', rate: 0.2 },
      { fault: 'html_500', rate: 1 },
    ]);
    expect(parseFelFaultSpec('')).toEqual([]);
    expect(() => parseFelFaultSpec('slow')).toThrow(/SIMULATOR_FEL_FAULT/);
    expect(() => parseFelFaultSpec('html_500@2')).toThrow(/rate/);
  });
});

describe('void deadlines as data', () => {
  it('takes the month’s deadline from the test’s table, else from SAT’s calendar (the IVA return’s due date)', () => {
    expect(voidDeadline('2026-11', { '2026-11': '2026-12-31' })).toBe('2026-12-31');
    expect(voidDeadline('2026-11', undefined)).toBe('2027-01-04');
    expect(voidDeadline('2026-12', {})).toBe('2027-02-01');
    expect(voidDeadline('2027-01', {})).toBe('2027-03-01');
  });
});

function creditNoteOf(original: { uuid: string; emittedAt: Date }, total = 11_200, reason = 'Reverso de la recarga'): FelDocument {
  const result = prepareDocument({ ...sampleTopUpDocument(total), type: 'NCRE', reference: { uuid: original.uuid, emittedAt: original.emittedAt, reason } });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.document;
}

async function voidOf(original: { uuid: string; emittedAt: Date }, identifier = `anul-${++sequence}`) {
  const request = prepareVoid({ uuid: original.uuid, issuerNit: SAMPLE_ISSUER.nit, receptorId: 'CF', originalEmittedAt: original.emittedAt, voidedAt: new Date(), reason: 'Recarga revertida' });
  if (!request.ok) throw new Error(JSON.stringify(request.problems));
  const response = await fetch(`${simulator.url}/fel${FEL_SIM_PATHS.void}`, {
    method: 'POST',
    headers: { 'content-type': 'application/xml', ...signing, identificador: identifier, es_anulacion: 'S' },
    body: voidXml(request.request),
  });
  return { identifier, body: (await response.json()) as InfileAnswer };
}

describe('credit notes (NCRE) and voids', () => {
  it('certifies an NCRE that references one invoice of the issuer, counted like a certification; the invoice can no longer be voided', async () => {
    const invoice = prepared(11_200);
    const original = await certify(documentXml(invoice));
    const reference = { uuid: original.body.uuid, emittedAt: invoice.emittedAt };
    const xml = documentXml(creditNoteOf(reference));
    expect(xml).toContain('Tipo="NCRE"');
    expect(xml).toContain(`NumeroAutorizacionDocumentoOrigen="${original.body.uuid}"`);
    const note = await certify(xml);
    expect(note.body).toMatchObject({ resultado: true });
    expect(simulator.fel.certificationCount(note.identifier)).toBe(1);
    expect(simulator.fel.certification(note.identifier)).toMatchObject({ type: 'NCRE', references: original.body.uuid });
    const refused = await voidOf(reference);
    expect(codes(refused.body)).toEqual(['FEL_ANU005']);
    expect(simulator.fel.voidCount(refused.identifier)).toBe(0);
    // Nothing beyond the invoice's total is credited.
    expect(codes((await certify(documentXml(creditNoteOf(reference, 1)))).body)).toEqual(['FEL_NCR004']);
  });

  it('refuses an NCRE without its one reference, of an unknown document, or with another emission day', async () => {
    const invoice = prepared(5_000);
    const original = await certify(documentXml(invoice));
    const xml = documentXml(creditNoteOf({ uuid: original.body.uuid, emittedAt: invoice.emittedAt }, 5_000));
    const withoutReference = xml.replace(/<dte:Complementos>.*<\/dte:Complementos>/s, '');
    expect(codes((await certify(withoutReference)).body)).toEqual(['FEL_NCR001']);
    expect(codes((await certify(xml.replace(original.body.uuid, '00000000-0000-4000-8000-000000000000'))).body)).toEqual(['FEL_NCR002']);
    const otherDay = documentXml(creditNoteOf({ uuid: original.body.uuid, emittedAt: new Date(invoice.emittedAt.getTime() - 40 * 86_400_000) }, 5_000));
    expect(codes((await certify(otherDay)).body)).toEqual(['FEL_NCR003']);
  });

  it('counts a void once per identifier, and refuses an NCRE of a voided invoice', async () => {
    const invoice = prepared(6_000);
    const original = await certify(documentXml(invoice));
    const reference = { uuid: original.body.uuid, emittedAt: invoice.emittedAt };
    const voided = await voidOf(reference);
    expect(voided.body).toMatchObject({ resultado: true });
    expect((await voidOf(reference, voided.identifier)).body.descripcion).toBe('Documento enviado previamente.');
    expect(simulator.fel.voidCount(voided.identifier)).toBe(1);
    expect(codes((await certify(documentXml(creditNoteOf(reference, 6_000)))).body)).toEqual(['FEL_NCR002']);
  });
});
