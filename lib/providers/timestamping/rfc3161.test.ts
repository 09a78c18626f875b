// The RFC 3161 client against the simulated authority: a stamp that openssl verifies on its own,
// each fault's outcome, a token from another authority, and a kept token checked again. No database.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator/server';
import { TSA_SIM_POLICY, type TsaFault } from '../../../simulator/tsa';
import type { TimeStampOutcome } from './authority';
import { configuredTimeStampAuthority } from './configured';
import { httpTimeStampAuthority, type HttpTimeStampAuthorityOptions } from './http-authority';
import { readTimeStampReply, timeStampRequest, verifyStoredToken } from './rfc3161';

const run = promisify(execFile);
const CLOCK = new Date('2026-03-14T15:09:26Z');

let simulator: RunningSimulator;
let other: RunningSimulator;
let directory: string;

const authority = (overrides: Partial<HttpTimeStampAuthorityOptions> = {}) =>
  httpTimeStampAuthority({ url: `${simulator.url}/tsa`, trustedCertificatePem: simulator.tsa.certificatePem, timeoutMs: 5_000, ...overrides });

const sha256 = (data: string | Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

async function openssl(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('openssl', args);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

function stamped(outcome: TimeStampOutcome): Extract<TimeStampOutcome, { kind: 'stamped' }> {
  if (outcome.kind !== 'stamped') throw new Error(`expected a stamp, got ${JSON.stringify(outcome)}`);
  return outcome;
}

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, tsa: { now: () => CLOCK, slowDelayMs: 10_000 } });
  other = await startSimulator({ port: 0 });
  directory = await mkdtemp(path.join(tmpdir(), 'tsa-'));
});
afterAll(async () => {
  await Promise.all([simulator.close(), other.close()]);
  await rm(directory, { recursive: true, force: true });
});
beforeEach(() => simulator.tsa.setFaults([]));

describe('a time stamp from the simulated authority', () => {
  it('is stamped at the authority’s time, and openssl verifies the reply and the token alone', async () => {
    const data = 'Constancia de consulta 0001: NIT 576937K, 2026-03-14';
    const outcome = stamped(await authority().stamp(sha256(data)));
    expect(outcome.genTime).toEqual(CLOCK);
    expect(outcome.policy).toBe(TSA_SIM_POLICY);
    expect(outcome.serialNumber).toBe(simulator.tsa.stamps().at(-1)!.serialNumber);
    expect(simulator.tsa.stamps().at(-1)).toMatchObject({ digest: Buffer.from(sha256(data)).toString('hex'), fault: null });

    const files = {
      data: path.join(directory, 'constancia.txt'),
      other: path.join(directory, 'otra.txt'),
      reply: path.join(directory, 'sello.tsr'),
      token: path.join(directory, 'sello.tst'),
      certificate: path.join(directory, 'tsa.pem'),
    };
    await writeFile(files.data, data);
    await writeFile(files.other, `${data}.`);
    await writeFile(files.reply, outcome.reply);
    await writeFile(files.token, outcome.token);
    await writeFile(files.certificate, simulator.tsa.certificatePem);

    const reply = await openssl('ts', '-verify', '-data', files.data, '-in', files.reply, '-CAfile', files.certificate);
    expect(reply.output).toContain('Verification: OK');
    expect(reply.code).toBe(0);
    const token = await openssl('ts', '-verify', '-data', files.data, '-in', files.token, '-token_in', '-CAfile', files.certificate);
    expect(token.output).toContain('Verification: OK');

    const otherData = await openssl('ts', '-verify', '-data', files.other, '-in', files.reply, '-CAfile', files.certificate);
    expect(otherData.output).not.toContain('Verification: OK');
    expect(otherData.code).not.toBe(0);

    // What openssl prints of the token is what the client read.
    const text = await openssl('ts', '-reply', '-in', files.reply, '-text');
    expect(text.output).toContain(`Policy OID: ${TSA_SIM_POLICY}`);
    expect(text.output).toContain('Mar 14 15:09:26 2026 GMT');
  });

  it('increases the serial numbers', async () => {
    const first = stamped(await authority().stamp(sha256('uno')));
    const second = stamped(await authority().stamp(sha256('uno')));
    expect(BigInt(`0x${second.serialNumber}`)).toBeGreaterThan(BigInt(`0x${first.serialNumber}`));
  });

  it('is checked again later from the kept token, and a flipped byte is refused', async () => {
    const digest = sha256('factura FACT-0042');
    const outcome = stamped(await authority().stamp(digest));
    expect(await verifyStoredToken(outcome.token, digest, simulator.tsa.certificatePem)).toEqual({
      ok: true,
      genTime: CLOCK,
      serialNumber: outcome.serialNumber,
      policy: TSA_SIM_POLICY,
    });
    expect(await verifyStoredToken(outcome.token, sha256('otra factura'), simulator.tsa.certificatePem)).toEqual({ ok: false, detail: 'the token stamps another digest' });
    expect((await verifyStoredToken(outcome.token, digest, other.tsa.certificatePem)).ok).toBe(false);

    // Every byte of the token is covered by a check: the signature, the certificate, the structure.
    for (const index of [20, Math.floor(outcome.token.length / 2), outcome.token.length - 10]) {
      const flipped = Uint8Array.from(outcome.token);
      flipped[index] = flipped[index]! ^ 0x01;
      expect(await verifyStoredToken(flipped, digest, simulator.tsa.certificatePem)).toMatchObject({ ok: false });
    }
  });

  it('answers what the configured settings name, fetching the simulator’s certificate when no file is set', async () => {
    const configured = await configuredTimeStampAuthority({ TSA_URL: `${simulator.url}/tsa`, TSA_CERTIFICATE_FILE: undefined, TSA_USERNAME: undefined, TSA_PASSWORD: undefined, TSA_TIMEOUT_MS: 5_000 });
    expect((await configured.stamp(sha256('configurada'))).kind).toBe('stamped');
  });
});

describe('what the client refuses', () => {
  const cases: Array<[TsaFault, TimeStampOutcome['kind'], RegExp]> = [
    ['unavailable', 'unreachable', /HTTP 503/],
    ['slow', 'unreachable', /no answer within 300 ms/],
    ['wrong_imprint', 'invalid', /another digest/],
    ['bad_signature', 'invalid', /signature does not verify/],
  ];
  it.each(cases)('%s gives %s', async (fault, kind, detail) => {
    simulator.tsa.setFaults([fault]);
    const outcome = await authority({ timeoutMs: 300 }).stamp(sha256(`con la falla ${fault}`));
    expect(outcome).toMatchObject({ kind, detail: expect.stringMatching(detail) });
  });

  it('rejection gives refused, with the status and the authority’s words', async () => {
    simulator.tsa.setFaults(['rejection']);
    expect(await authority().stamp(sha256('rechazada'))).toEqual({ kind: 'refused', status: 2, text: 'la autoridad simulada rechaza la solicitud' });
  });

  it('refuses a reply signed by another authority', async () => {
    const outcome = await authority({ url: `${other.url}/tsa` }).stamp(sha256('otra autoridad'));
    expect(outcome).toMatchObject({ kind: 'invalid', detail: expect.stringMatching(/does not chain to the trusted certificate/) });
  });

  it('refuses a reply to another request (its nonce), and bytes that are no reply', async () => {
    const digest = sha256('repetida');
    const request = timeStampRequest(digest, Uint8Array.of(1, 2, 3));
    const answer = await fetch(`${simulator.url}/tsa`, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: request });
    const reply = new Uint8Array(await answer.arrayBuffer());
    const trusted = simulator.tsa.certificatePem;
    expect((await readTimeStampReply(reply, { digest, nonce: Uint8Array.of(1, 2, 3), trusted })).kind).toBe('stamped');
    expect(await readTimeStampReply(reply, { digest, nonce: Uint8Array.of(1, 2, 4), trusted })).toEqual({ kind: 'invalid', detail: 'the token carries another nonce' });
    expect((await readTimeStampReply(Uint8Array.of(0x30, 0x03, 0x02), { digest, nonce: Uint8Array.of(1), trusted })).kind).toBe('invalid');
  });

  it('is unreachable when nothing listens', async () => {
    const closed = await startSimulator({ port: 0 });
    const url = `${closed.url}/tsa`;
    await closed.close();
    expect(await authority({ url }).stamp(sha256('nadie'))).toMatchObject({ kind: 'unreachable', detail: expect.stringMatching(/ECONNREFUSED/) });
  });
});
