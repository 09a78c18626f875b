// The INFILE adapter against the running certifier simulator: every outcome and every fault, and
// the lookups that settle an indeterminate answer. No database.

import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FEL_SIM_DEV_CREDENTIALS, FEL_SIM_RECEPTORS } from '../../../simulator/fel';
import { startSimulator, type RunningSimulator } from '../../../simulator/server';
import { felIdentifier, type FelCertifier, type FelIdentifier } from './certifier';
import { emissionDay, prepareDocument, prepareVoid, type FelDocument, type Receptor } from './document';
import { SAMPLE_ISSUER, sampleTopUpDocument } from '@/tests/support/fel-examples';
import { createInfileCertifier, interpretCertifyAnswer, interpretLookupAnswer, interpretNitNameAnswer, type InfileOptions } from './infile';

let simulator: RunningSimulator;
let certifier: FelCertifier;
const logLines: Array<Record<string, unknown>> = [];
let sequence = 0;

const adapter = (overrides: Partial<InfileOptions> = {}) =>
  createInfileCertifier({
    certifierBaseUrl: `${simulator.url}/fel`,
    nitLookupBaseUrl: `${simulator.url}/fel/receptores`,
    credentials: FEL_SIM_DEV_CREDENTIALS,
    log: (line) => logLines.push(line),
    ...overrides,
  });

beforeAll(async () => {
  simulator = await startSimulator({ port: 0 });
  certifier = adapter();
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => simulator.fel.setFaults([]));

function nextIdentifier(): FelIdentifier {
  sequence += 1;
  return felIdentifier(`recarga-${process.pid}-${sequence}`)!;
}

function document(totalCentavos = 11_200, receptor: Receptor = { kind: 'cf' }): FelDocument {
  const prepared = prepareDocument(sampleTopUpDocument(totalCentavos, receptor));
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  return prepared.document;
}

const lookupOf = (doc: FelDocument, identifier: FelIdentifier, day = emissionDay(doc)) =>
  certifier.lookupByIdentifier({ identifier, issuerNit: doc.issuer.nit, documentType: doc.type, establishmentCode: doc.issuer.establishmentCode, emittedOn: day });

describe('certify', () => {
  it('certifies once, and answers a used identifier with the same numbers', async () => {
    const doc = document();
    const identifier = nextIdentifier();
    const first = await certifier.certify(doc, identifier);
    expect(first).toMatchObject({ kind: 'certified' });
    if (first.kind !== 'certified') return;
    expect(first.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(first.serie).toBe(first.uuid.slice(0, 8));
    expect(first.numero).toBe(String(Number.parseInt(first.uuid.replace(/-/g, '').slice(8, 16), 16)));
    expect(first.xml).toContain(`<dte:NumeroAutorizacion Numero="${first.numero}" Serie="${first.serie}">${first.uuid}</dte:NumeroAutorizacion>`);
    expect(first.xml).toContain('<dte:GranTotal>112.00</dte:GranTotal>');
    expect(Math.abs(first.certifiedAt.getTime() - Date.now())).toBeLessThan(60_000);

    const again = await certifier.certify(doc, identifier);
    expect(again).toEqual({ kind: 'already_certified', uuid: first.uuid, serie: first.serie, numero: first.numero });
    expect(simulator.fel.certificationCount(identifier)).toBe(1);
    expect(await lookupOf(doc, identifier)).toEqual({ kind: 'found', uuid: first.uuid, serie: first.serie, numero: first.numero });
  });

  it('certifies to a NIT with the registry’s name, and to a CUI', async () => {
    const [company, person] = FEL_SIM_RECEPTORS;
    expect(await certifier.certify(document(300_000, { kind: 'nit', nit: company.nit, name: company.name }), nextIdentifier())).toMatchObject({ kind: 'certified' });
    expect(await certifier.certify(document(100, { kind: 'nit', nit: person.nit, name: person.name }), nextIdentifier())).toMatchObject({ kind: 'certified' });
    expect(await certifier.certify(document(100, { kind: 'cui', cui: '1587564440904', name: 'Ana' }), nextIdentifier())).toMatchObject({ kind: 'certified' });
  });

  it('passes the certifier’s refusals on as rejected, with its code and message', async () => {
    const unknownNit = await certifier.certify(document(100, { kind: 'nit', nit: '900000015', name: 'NADIE' }), nextIdentifier());
    expect(unknownNit).toEqual({ kind: 'rejected', errors: [{ code: 'FEL_RCP005', message: 'El NIT del receptor no está registrado.' }] });
    const wrongName = await certifier.certify(document(100, { kind: 'nit', nit: FEL_SIM_RECEPTORS[0].nit, name: 'OTRA EMPRESA' }), nextIdentifier());
    expect(wrongName).toMatchObject({ kind: 'rejected', errors: [{ code: 'FEL_RCP004' }] });
  });

  it('answers credentials_refused to wrong credentials', async () => {
    const wrong = adapter({ credentials: { ...FEL_SIM_DEV_CREDENTIALS, apiKey: 'otra' } });
    const identifier = nextIdentifier();
    expect(await wrong.certify(document(), identifier)).toMatchObject({ kind: 'credentials_refused' });
    expect(simulator.fel.certificationCount(identifier)).toBe(0);
    simulator.fel.setFaults([{ fault: 'wrong_credentials', times: 1 }]);
    expect(await certifier.certify(document(), nextIdentifier())).toMatchObject({ kind: 'credentials_refused' });
  });

  it('answers retry_later to a resend code and to the daily quota, and nothing is certified', async () => {
    simulator.fel.setFaults([{ fault: 'retryable', times: 1 }, { fault: 'daily_quota', times: 1 }]);
    const identifier = nextIdentifier();
    expect(await certifier.certify(document(), identifier)).toMatchObject({ kind: 'retry_later', reason: 'resend_requested' });
    expect(await certifier.certify(document(), identifier)).toMatchObject({ kind: 'retry_later', reason: 'daily_quota' });
    expect(simulator.fel.certificationCount(identifier)).toBe(0);
    expect(await certifier.certify(document(), identifier)).toMatchObject({ kind: 'certified' });
  });

  it('answers indeterminate to a 500 with an HTML body; the lookup then says it was not certified', async () => {
    simulator.fel.setFaults([{ fault: 'html_500', times: 1 }]);
    const doc = document();
    const identifier = nextIdentifier();
    expect(await certifier.certify(doc, identifier)).toMatchObject({ kind: 'indeterminate', reason: 'unreadable_answer' });
    expect(await lookupOf(doc, identifier)).toEqual({ kind: 'not_found' });
    expect(await certifier.certify(doc, identifier)).toMatchObject({ kind: 'certified' });
    expect(simulator.fel.certificationCount(identifier)).toBe(1);
  });

  it('answers indeterminate to invalid JSON; the lookup finds what was certified', async () => {
    simulator.fel.setFaults([{ fault: 'invalid_json', times: 1 }]);
    const doc = document();
    const identifier = nextIdentifier();
    expect(await certifier.certify(doc, identifier)).toMatchObject({ kind: 'indeterminate', reason: 'unreadable_answer' });
    const certified = simulator.fel.certification(identifier)!;
    expect(await lookupOf(doc, identifier)).toEqual({ kind: 'found', uuid: certified.uuid, serie: certified.serie, numero: certified.numero });
    expect(simulator.fel.certificationCount(identifier)).toBe(1);
  });

  it('answers indeterminate when the connection drops after certifying; a resend takes the same numbers', async () => {
    simulator.fel.setFaults([{ fault: 'drop_after_certify', times: 1 }]);
    const doc = document();
    const identifier = nextIdentifier();
    expect(await certifier.certify(doc, identifier)).toMatchObject({ kind: 'indeterminate', reason: 'connection_dropped' });
    const certified = simulator.fel.certification(identifier)!;
    expect(await lookupOf(doc, identifier)).toMatchObject({ kind: 'found', uuid: certified.uuid });
    expect(await certifier.certify(doc, identifier)).toEqual({ kind: 'already_certified', uuid: certified.uuid, serie: certified.serie, numero: certified.numero });
    expect(simulator.fel.certificationCount(identifier)).toBe(1);
  });

  it('answers indeterminate when the answer comes after the time-out', async () => {
    simulator.fel.setFaults([{ fault: 'latency', times: 1, delayMs: 2_000 }]);
    const doc = document();
    const identifier = nextIdentifier();
    const started = Date.now();
    expect(await adapter({ timeoutMs: 300 }).certify(doc, identifier)).toMatchObject({ kind: 'indeterminate', reason: 'timeout_after_sending' });
    expect(Date.now() - started).toBeLessThan(1_900);
    expect(await lookupOf(doc, identifier)).toMatchObject({ kind: 'found' });
    expect(simulator.fel.certificationCount(identifier)).toBe(1);
  });

  it('answers retry_later not_sent when nothing listens, and the lookups are unavailable', async () => {
    const closedPort = await freePort();
    const nowhere = adapter({ certifierBaseUrl: `http://127.0.0.1:${closedPort}/fel`, nitLookupBaseUrl: `http://127.0.0.1:${closedPort}` });
    const doc = document();
    const identifier = nextIdentifier();
    expect(await nowhere.certify(doc, identifier)).toMatchObject({ kind: 'retry_later', reason: 'not_sent' });
    expect(await nowhere.lookupByIdentifier({ identifier, issuerNit: doc.issuer.nit, documentType: 'FACT', establishmentCode: 1, emittedOn: emissionDay(doc) })).toMatchObject({ kind: 'unavailable' });
    expect(await nowhere.lookupNitName(FEL_SIM_RECEPTORS[0].nit)).toMatchObject({ kind: 'unavailable' });
  });

  it('never logs credentials, receptor NITs or names', async () => {
    logLines.length = 0;
    const [receptor] = FEL_SIM_RECEPTORS;
    await certifier.certify(document(100, { kind: 'nit', nit: receptor.nit, name: receptor.name }), nextIdentifier());
    await certifier.lookupNitName(receptor.nit);
    expect(logLines.map((line) => line.operation)).toEqual(['certify', 'nit_name']);
    const text = JSON.stringify(logLines);
    for (const secret of [...Object.values(FEL_SIM_DEV_CREDENTIALS), receptor.nit, 'EMPRESA DE PRUEBA']) expect(text).not.toContain(secret);
  });
});

describe('lookup by identifier', () => {
  it('answers not_found for an identifier never certified, or for the wrong day', async () => {
    const doc = document();
    const identifier = nextIdentifier();
    expect(await lookupOf(doc, identifier)).toEqual({ kind: 'not_found' });
    await certifier.certify(doc, identifier);
    expect(await lookupOf(doc, identifier, '2020-01-01')).toEqual({ kind: 'not_found' });
  });

  it('is unavailable, never not_found, when it cannot read an answer', async () => {
    const doc = document();
    const identifier = nextIdentifier();
    for (const fault of ['html_500', 'invalid_json', 'wrong_credentials', 'retryable'] as const) {
      simulator.fel.setFaults([{ fault, operations: ['lookup'], times: 1 }]);
      expect(await lookupOf(doc, identifier)).toMatchObject({ kind: 'unavailable' });
    }
    simulator.fel.setFaults([{ fault: 'drop_after_certify', operations: ['lookup'], times: 1 }]);
    expect(await lookupOf(doc, identifier)).toMatchObject({ kind: 'unavailable' });
    const wrong = adapter({ credentials: { ...FEL_SIM_DEV_CREDENTIALS, apiKey: 'otra' } });
    expect(await wrong.lookupByIdentifier({ identifier, issuerNit: doc.issuer.nit, documentType: 'FACT', establishmentCode: 1, emittedOn: emissionDay(doc) })).toMatchObject({ kind: 'unavailable' });
  });
});

describe('void', () => {
  async function certified() {
    const doc = document();
    const outcome = await certifier.certify(doc, nextIdentifier());
    if (outcome.kind !== 'certified') throw new Error(outcome.kind);
    const request = prepareVoid({ uuid: outcome.uuid, issuerNit: SAMPLE_ISSUER.nit, receptorId: 'CF', originalEmittedAt: doc.emittedAt, voidedAt: new Date(), reason: 'Recarga revertida' });
    if (!request.ok) throw new Error('void not prepared');
    return { doc, outcome, request: request.request };
  }

  it('voids once; the same void identifier again is still voided, another is refused', async () => {
    const { outcome, request } = await certified();
    const voidIdentifier = nextIdentifier();
    expect(await certifier.voidDocument(request, voidIdentifier)).toMatchObject({ kind: 'voided' });
    expect(simulator.fel.certifications().find((item) => item.uuid === outcome.uuid)?.voided).toMatchObject({ reason: 'Recarga revertida' });
    expect(await certifier.voidDocument(request, voidIdentifier)).toMatchObject({ kind: 'voided' });
    expect(await certifier.voidDocument(request, nextIdentifier())).toMatchObject({ kind: 'rejected', errors: [{ code: 'FEL_ANU002' }] });
  });

  it('is refused after the deadline, with the date', async () => {
    const late = await startSimulator({ port: 0, fel: { voidDeadlines: { [new Date().toISOString().slice(0, 7)]: '2020-01-31', [emissionMonthGt()]: '2020-01-31' } } });
    try {
      const lateCertifier = createInfileCertifier({ certifierBaseUrl: `${late.url}/fel`, nitLookupBaseUrl: `${late.url}/fel/receptores`, credentials: FEL_SIM_DEV_CREDENTIALS, log: () => {} });
      const doc = document();
      const outcome = await lateCertifier.certify(doc, nextIdentifier());
      if (outcome.kind !== 'certified') throw new Error(outcome.kind);
      const request = prepareVoid({ uuid: outcome.uuid, issuerNit: SAMPLE_ISSUER.nit, receptorId: 'CF', originalEmittedAt: doc.emittedAt, voidedAt: new Date(), reason: 'Tarde' });
      if (!request.ok) throw new Error('void not prepared');
      expect(await lateCertifier.voidDocument(request.request, nextIdentifier())).toEqual({
        kind: 'rejected',
        errors: [{ code: 'FEL_ANU003', message: 'El plazo para anular venció el 2020-01-31.' }],
      });
    } finally {
      await late.close();
    }
  });

  it('classifies the void’s faults as the certification’s', async () => {
    const { request } = await certified();
    const expected = { drop_after_certify: 'indeterminate', html_500: 'indeterminate', invalid_json: 'indeterminate', retryable: 'retry_later', wrong_credentials: 'credentials_refused', daily_quota: 'retry_later' } as const;
    for (const [fault, kind] of Object.entries(expected)) {
      simulator.fel.setFaults([{ fault: fault as keyof typeof expected, operations: ['void'], times: 1 }]);
      expect(await certifier.voidDocument(request, nextIdentifier()), fault).toMatchObject({ kind });
    }
  });
});

describe('NIT name lookup', () => {
  it('answers the registry’s name, not_found for an unknown or invalid NIT', async () => {
    expect(await certifier.lookupNitName(FEL_SIM_RECEPTORS[1].nit)).toEqual({ kind: 'name', name: 'PEREZ,LOPEZ,,JUAN,CARLOS' });
    expect(await certifier.lookupNitName('576937-K')).toMatchObject({ kind: 'name', name: simulator.population.findByNit('576937K')!.satName });
    expect(await certifier.lookupNitName('900000015')).toEqual({ kind: 'not_found' });
    expect(await certifier.lookupNitName('5769371')).toEqual({ kind: 'not_found' });
  });

  it('is unavailable with wrong credentials or a failing service', async () => {
    expect(await adapter({ credentials: { ...FEL_SIM_DEV_CREDENTIALS, apiKey: 'otra' } }).lookupNitName(FEL_SIM_RECEPTORS[0].nit)).toMatchObject({ kind: 'unavailable' });
    simulator.fel.setFaults([{ fault: 'html_500', operations: ['nit_name'], times: 1 }]);
    expect(await certifier.lookupNitName(FEL_SIM_RECEPTORS[0].nit)).toMatchObject({ kind: 'unavailable' });
  });
});

describe('answers read without a network', () => {
  const json = (body: unknown) => JSON.stringify(body);
  it('reads a used identifier without numbers as one to look up', () => {
    expect(interpretCertifyAnswer(200, json({ resultado: false, descripcion_errores: [{ validacion: 'FEL_GEN106', mensaje_error: 'Documento ya existe' }] }))).toEqual({ kind: 'used_without_numbers' });
    expect(interpretCertifyAnswer(200, json({ resultado: false, descripcion: 'Documento enviado previamente.' }))).toEqual({ kind: 'used_without_numbers' });
  });

  it('reads status codes the simulator does not send', () => {
    expect(interpretCertifyAnswer(401, '<html/>')).toMatchObject({ kind: 'credentials_refused' });
    expect(interpretCertifyAnswer(503, json({ resultado: false, descripcion: 'Mantenimiento' }))).toMatchObject({ kind: 'retry_later', reason: 'certifier_error' });
    expect(interpretCertifyAnswer(429, json({ resultado: false, control_emision: { Saldo: 10 } }))).toMatchObject({ kind: 'retry_later', reason: 'rate_limited' });
    expect(interpretCertifyAnswer(200, json({ resultado: true, uuid: 'x' }))).toMatchObject({ kind: 'indeterminate', reason: 'unreadable_answer' });
    expect(interpretCertifyAnswer(400, json({ resultado: false, descripcion: 'XML mal formado' }))).toEqual({ kind: 'rejected', errors: [{ code: null, message: 'XML mal formado' }] });
    expect(interpretLookupAnswer(202, json({ descripcion: '?' }))).toMatchObject({ kind: 'unavailable' });
    expect(interpretNitNameAnswer(200, json({ mensaje: 'sin nombre' }))).toMatchObject({ kind: 'unavailable' });
  });
});

function emissionMonthGt(): string {
  return new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 7);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
