// Constancias de consulta (issue 68): a receipt of each of the five lookups verifies offline with
// `jose` and the published keys alone, and fails with any byte of it changed; after a key rotation
// old receipts still verify and new ones name the new key; the log's inclusion and consistency
// proofs verify against its signed heads; a stored leaf rewritten is caught by the next head's
// check; an index no receipt was written for becomes a hole, and a late receipt loses to it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { compileStatement } from '@/db/compiled-statement';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { LOOKUP_KINDS } from '@/db/schema';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { setConstanciaRetention, setConstanciasLegalHold } from '@/lib/flows/integration-management/service';
import { TEST_CONSTANCIA_KEY, TEST_CONSTANCIA_NEXT_KEY } from '@/tests/support/constancia-keys';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { leafHash, verifyConsistency, verifyInclusion } from '@/lib/platform/transparency/merkle';
import { setProcessSlot } from '@/lib/platform/runtime/process-state';
import { prepareConstancia, type AnsweredLookup, type IssuedConstancia } from './issue';
import { indexBlock, publishedConstanciaKeys } from './keys';
import { consistencyProofOf, HOLE_AFTER_MS, inclusionProofOf, latestHead, logAudit, sequenceLog } from './log';
import { constanciaOfIntegration, verifyConstancia } from './read';
import { timestampLatestHead } from './timestamp';
import { purgeExpiredConstancias } from './retention';
import { startSimulator } from '@/simulator/server';
import { httpTimeStampAuthority } from '@/lib/providers/timestamping/http-authority';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('constancias');
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

/**
 * Signs a head as the sequencer would once every hole is due: an instance hands out its block of
 * indexes for a few seconds only, so the leaves a test wrote may sit after indexes nobody will write.
 */
/** A receipt written on its own, as a lookup's statement writes it beside its record. */
async function issueConstancia(answered: AnsweredLookup): Promise<IssuedConstancia> {
  const prepared = await prepareConstancia(answered);
  // Alone, without a lookup's record: the statement the lookups' own carry, around no record.
  const { companion } = prepared;
  await (await database()).compiled(
    compileStatement(sql`with record as (select null::bigint as id), ${companion.fee(sql`0`)}, ${companion.cte}, ${companion.charge} select ${companion.written} as written`),
    companion.values,
  );
  return prepared.issued;
}

const signHead = () => sequenceLog(new Date(Date.now() + HOLE_AFTER_MS + 1_000));

function answered(lookup: (typeof LOOKUP_KINDS)[number], requestId: string): AnsweredLookup {
  return {
    integrationId: integration.id,
    integrationLogin: integration.nombre,
    lookup,
    requestId,
    requestBody: lookup === 'renap' ? { cui: '1587564440904' } : { nit: '576937K' },
    status: 200,
    responseBody: JSON.stringify({ data: { nit: '576937K', nombre: 'EMPRESA DE PRUEBA', fechaConsulta: '2026-11-29T10:00:00Z' } }),
  };
}

async function keySet() {
  return createLocalJWKSet({ keys: await publishedConstanciaKeys() });
}

async function receiptOf(id: string): Promise<string> {
  const stored = await constanciaOfIntegration(integration.id, id);
  return stored!.receipt!;
}

/** `text` with one character changed at `at` (to another of the base64url alphabet). */
function flipped(text: string, at: number): string {
  const swap = text[at] === 'A' ? 'B' : 'A';
  return `${text.slice(0, at)}${swap}${text.slice(at + 1)}`;
}

describe('a receipt of each lookup', () => {
  it('verifies offline with jose and the published keys, and says what was asked and answered', async () => {
    const keys = await keySet();
    for (const [n, lookup] of LOOKUP_KINDS.entries()) {
      const issued = await issueConstancia(answered(lookup, `req_constancia_${n}`));
      const receipt = await receiptOf(issued.id);
      const { payload, protectedHeader } = await compactVerify(receipt, keys);
      const body = JSON.parse(new TextDecoder().decode(payload));
      expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: TEST_CONSTANCIA_KEY.kid, typ: 'constancia-de-consulta' });
      expect(body).toMatchObject({
        tipo: 'constancia-de-consulta',
        id: issued.id,
        solicitud: { requestId: `req_constancia_${n}`, integracion: integration.nombre },
        respuesta: { estado: 200, cuerpo: { data: { nombre: 'EMPRESA DE PRUEBA' } } },
        fuente: { fechaConsulta: '2026-11-29T10:00:00Z' },
        clave: TEST_CONSTANCIA_KEY.kid,
        registro: { indice: issued.leafIndex },
      });
      expect(issued.url).toMatch(new RegExp(`/api/constancias/${issued.id}$`));
    }
  });

  it('fails verification with any byte of its payload or signature changed', async () => {
    const keys = await keySet();
    const issued = await issueConstancia(answered('rtu', 'req_constancia_flip'));
    const receipt = await receiptOf(issued.id);
    const [header, payload, signature] = receipt.split('.') as [string, string, string];
    const positions = [header.length + 1 + 5, header.length + 1 + Math.floor(payload.length / 2), header.length + payload.length + 2 + 3, receipt.length - 10];
    for (const at of positions) {
      await expect(compactVerify(flipped(receipt, at), keys)).rejects.toThrow();
      expect((await verifyConstancia(flipped(receipt, at))).valid).toBe(false);
    }
    expect(signature.length).toBeGreaterThan(80);
    expect((await verifyConstancia(receipt)).valid).toBe(true);
  });
});

describe('the log', () => {
  it('proves each receipt in a signed head, and each head consistent with the one before', async () => {
    const first = await signHead();
    expect(first.kind).toBe('signed');
    const firstHead = (await latestHead())!;
    const more = await issueConstancia(answered('omisos', 'req_constancia_more'));
    const second = await signHead();
    expect(second.kind).toBe('signed');
    const secondHead = (await latestHead())!;
    expect(secondHead.treeSize).toBe(more.leafIndex + 1);

    const receipt = await receiptOf(more.id);
    const proof = await inclusionProofOf(more.leafIndex, secondHead.treeSize);
    const hash = leafHash(new TextEncoder().encode(receipt));
    const root = Buffer.from(secondHead.rootHash, 'hex');
    expect(verifyInclusion({ leafHash: hash, index: more.leafIndex, size: secondHead.treeSize, proof: proof.map((node) => Buffer.from(node, 'hex')), root })).toBe(true);
    expect(proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(secondHead.treeSize)));

    const consistency = (await consistencyProofOf(firstHead.treeSize, secondHead.treeSize)).map((node) => Buffer.from(node, 'hex'));
    const oldRoot = Buffer.from(firstHead.rootHash, 'hex');
    expect(verifyConsistency({ oldSize: firstHead.treeSize, newSize: secondHead.treeSize, proof: consistency, oldRoot, newRoot: root })).toBe(true);

    // The heads are signed statements too, by the same published keys.
    const { payload } = await compactVerify(secondHead.signedHead, await keySet());
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ tipo: 'cabeza-de-registro', tamano: secondHead.treeSize, raizSha256: secondHead.rootHash });
    expect(await verifyConstancia(receipt)).toMatchObject({ valid: true, inLog: 'included' });
  });

  it('fills an index whose receipt was never written with a hole, and the late receipt loses to it', async () => {
    const handle = await database();
    expect((await signHead()).kind).not.toBe('tampered');
    // An instance took an index and died before writing its receipt; a later receipt takes a block of its own.
    const [taken] = await handle.rows<{ leaf_index: string }>(sql`select nextval('constancia_leaf_index') as leaf_index`);
    const lost = Number(taken!.leaf_index);
    indexBlock().indexes = [];
    const after = await issueConstancia(answered('cui_nit', 'req_constancia_after_hole'));
    expect(after.leafIndex).toBeGreaterThan(lost);
    // Not yet: a hole waits HOLE_AFTER_MS after a later receipt.
    expect(await sequenceLog()).toMatchObject({ kind: 'unchanged' });
    const run = await signHead();
    expect(run).toMatchObject({ kind: 'signed' });
    if (run.kind === 'signed') expect(run.appended).toBe(run.holes + 1);
    expect((await latestHead())?.treeSize).toBe(after.leafIndex + 1);
    const [hole] = await handle.rows<{ hole: boolean }>(sql`select hole from constancia_log_leaves where leaf_index = ${lost}`);
    expect(hole?.hole).toBe(true);
    // The dead instance's receipt, written after all, loses to its hole.
    await expect(
      handle.rows(sql`insert into constancia_log_leaves (leaf_index, leaf_hash) values (${lost}, ${'11'.repeat(32)})`),
    ).rejects.toThrow();
  });

  it('catches a stored leaf rewritten since the last head: no new head is signed', async () => {
    const handle = await database();
    await issueConstancia(answered('renap', 'req_constancia_before_tamper'));
    expect((await signHead()).kind).toBe('signed');
    const head = (await latestHead())!;
    const [victim] = await handle.rows<{ leaf_index: string; leaf_hash: string }>(sql`select leaf_index, leaf_hash from constancia_log_leaves where leaf_index = 1`);
    await handle.rows(sql`update constancia_log_leaves set leaf_hash = ${'00'.repeat(32)} where leaf_index = 1`);
    await issueConstancia(answered('renap', 'req_constancia_after_tamper'));
    const run = await signHead();
    expect(run).toMatchObject({ kind: 'tampered', treeSize: head.treeSize });
    expect((await latestHead())!.treeSize).toBe(head.treeSize);
    // Put back, the log is as signed and goes on.
    await handle.rows(sql`update constancia_log_leaves set leaf_hash = ${victim!.leaf_hash} where leaf_index = 1`);
    expect((await signHead()).kind).toBe('signed');
  });

  it('checks a long log a window a run, and catches a leaf rewritten behind the window within one pass', async () => {
    const handle = await database();
    for (let index = 0; index < 5; index++) await issueConstancia(answered('rtu', `req_constancia_window_${index}`));
    expect((await signHead()).kind).toBe('signed');
    const size = (await latestHead())!.treeSize;
    expect(size).toBeGreaterThanOrEqual(8);
    // Three leaves a run: each run checks the window after the last run's, and a pass ends at the head.
    const window = 3;
    const runs = Math.ceil(size / window);
    const signWindowed = () => sequenceLog(new Date(Date.now() + HOLE_AFTER_MS + 1_000), { auditLeavesPerRun: window });
    let passEnded = false;
    for (let run = 0; run < runs + 1 && !passEnded; run++) {
      expect((await signWindowed()).kind).not.toBe('tampered');
      const audit = await logAudit();
      passEnded = audit.nextLeaf === 0 && audit.passTreeSize === size;
    }
    expect(passEnded).toBe(true);
    // The last leaf of the log's first 8 is rewritten (one the root's stored subtrees still hide): the
    // runs go on signing (receipts keep coming) until the window comes to it, and that run signs nothing.
    const victimIndex = 7;
    const [victim] = await handle.rows<{ leaf_hash: string }>(sql`select leaf_hash from constancia_log_leaves where leaf_index = ${victimIndex}`);
    await handle.rows(sql`update constancia_log_leaves set leaf_hash = ${'00'.repeat(32)} where leaf_index = ${victimIndex}`);
    const kinds: string[] = [];
    for (let run = 0; run < runs + 1 && !kinds.includes('tampered'); run++) {
      await issueConstancia(answered('rtu', `req_constancia_window_after_${run}`));
      const result = await signWindowed();
      kinds.push(result.kind);
      if (result.kind === 'tampered') expect(result.detail).toMatch(/^the leaves \d+ to \d+ no longer hash to the head of size \d+$/);
    }
    expect(kinds.at(-1)).toBe('tampered');
    expect(kinds.slice(0, -1)).toEqual(kinds.slice(0, -1).map(() => 'signed'));
    expect(kinds.length).toBeGreaterThan(1);
    await handle.rows(sql`update constancia_log_leaves set leaf_hash = ${victim!.leaf_hash} where leaf_index = ${victimIndex}`);
    expect((await signWindowed()).kind).toBe('signed');
  });
});

describe('a key rotation', () => {
  it('signs new receipts with the new key while the old ones keep verifying', async () => {
    const before = await issueConstancia(answered('rtu', 'req_constancia_before_rotation'));
    const oldReceipt = await receiptOf(before.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const handover = new Date().toISOString();
    // The operator publishes the next key, then the old one stops signing at the handover.
    process.env.CONSTANCIA_SIGNING_KEYS = JSON.stringify([
      { ...TEST_CONSTANCIA_KEY, firmaHasta: handover },
      { ...TEST_CONSTANCIA_NEXT_KEY, firmaDesde: handover },
    ]);
    resetEnvCache();
    setProcessSlot('constanciaKeys', undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = await issueConstancia(answered('rtu', 'req_constancia_after_rotation'));
    const newReceipt = await receiptOf(after.id);
    expect(decodeProtectedHeader(newReceipt).kid).toBe(TEST_CONSTANCIA_NEXT_KEY.kid);
    const keys = await keySet();
    await expect(compactVerify(oldReceipt, keys)).resolves.toBeDefined();
    await expect(compactVerify(newReceipt, keys)).resolves.toBeDefined();
    expect(await verifyConstancia(oldReceipt)).toMatchObject({ valid: true });
    expect(await verifyConstancia(newReceipt)).toMatchObject({ valid: true });

    // The old key leaves the configuration: it is still published, because it signed.
    process.env.CONSTANCIA_SIGNING_KEYS = JSON.stringify([{ ...TEST_CONSTANCIA_NEXT_KEY, firmaDesde: handover }]);
    resetEnvCache();
    setProcessSlot('constanciaKeys', undefined);
    expect((await publishedConstanciaKeys()).map((key) => key.kid)).toEqual([TEST_CONSTANCIA_NEXT_KEY.kid, TEST_CONSTANCIA_KEY.kid]);
    expect((await verifyConstancia(oldReceipt)).valid).toBe(true);
  });
});

describe("the daily head's time stamp", () => {
  it('is an RFC 3161 reply over the signed head that openssl verifies on its own', async () => {
    const simulator = await startSimulator({ port: 0 });
    const scratch = await mkdtemp(path.join(tmpdir(), 'constancia-tsa-'));
    try {
      const authority = httpTimeStampAuthority({ url: `${simulator.url}/tsa`, trustedCertificatePem: simulator.tsa.certificatePem, timeoutMs: 5_000 });
      await issueConstancia(answered('omisos', 'req_constancia_stamped'));
      expect((await signHead()).kind).toBe('signed');
      const run = await timestampLatestHead(authority);
      expect(run.kind).toBe('stamped');
      // Once a day: asked again at once, it is not due.
      expect((await timestampLatestHead(authority)).kind).toBe('not_due');
      const head = (await latestHead())!;
      const files = { head: path.join(scratch, 'head.jws'), reply: path.join(scratch, 'head.tsr'), certificate: path.join(scratch, 'tsa.pem') };
      await writeFile(files.head, head.signedHead);
      await writeFile(files.reply, Buffer.from(head.timestampReply!, 'base64'));
      await writeFile(files.certificate, simulator.tsa.certificatePem);
      const { stdout } = await promisify(execFile)('openssl', ['ts', '-verify', '-data', files.head, '-in', files.reply, '-CAfile', files.certificate]);
      expect(stdout).toContain('Verification: OK');
      // Another head's text does not match the stamp.
      await writeFile(files.head, `${head.signedHead}x`);
      await expect(promisify(execFile)('openssl', ['ts', '-verify', '-data', files.head, '-in', files.reply, '-CAfile', files.certificate])).rejects.toThrow();
    } finally {
      await rm(scratch, { recursive: true, force: true });
      await simulator.close();
    }
  });
});

describe('what is kept, and for how long', () => {
  async function aged(requestId: string, years: number): Promise<{ id: string; receipt: string }> {
    const issued = await issueConstancia(answered('rtu', requestId));
    const receipt = await receiptOf(issued.id);
    const handle = await database();
    await handle.rows(sql`update constancias set issued_at = now() - make_interval(days => ${Math.round(years * 365.25)}) where id = ${issued.id}`);
    return { id: issued.id, receipt };
  }

  it('drops a text with the records, a row with the integration’s years, nothing under a legal hold, and leaves a proof of each purge in the audit', async () => {
    const handle = await database();
    const recordsKeptFrom = new Date(Date.now() - 2 * 365.25 * 86_400_000);
    const recent = await aged('req_constancia_kept_recent', 0.5);
    const pastRecords = await aged('req_constancia_kept_3y', 3);
    const pastProofs = await aged('req_constancia_kept_6y', 6);
    expect((await signHead()).kind).toBe('signed');

    const run = await purgeExpiredConstancias(recordsKeptFrom);
    expect(run).toMatchObject({ textsPurged: 2, proofsPurged: 1 });
    expect((await constanciaOfIntegration(integration.id, recent.id))?.receipt).toBe(recent.receipt);
    expect(await constanciaOfIntegration(integration.id, pastRecords.id)).toMatchObject({ receipt: null });
    expect(await constanciaOfIntegration(integration.id, pastProofs.id)).toBeNull();
    // Whoever kept the receipt still verifies it: its leaf stays in the log.
    expect(await verifyConstancia(pastProofs.receipt)).toMatchObject({ valid: true, inLog: 'included' });

    const audit = await handle.rows<{ action: string; after: { constancias: number; sha256: string } | string }>(
      sql`select action, after from audit_log where action like 'constancia.%' and target_id = ${String(integration.id)} order by id`,
    );
    const entries = audit.map((entry) => ({ action: entry.action, after: typeof entry.after === 'string' ? JSON.parse(entry.after) : entry.after }));
    expect(entries).toEqual([
      { action: 'constancia.text_purged', after: expect.objectContaining({ constancias: 2, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }) },
      { action: 'constancia.proof_purged', after: expect.objectContaining({ constancias: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }) },
    ]);
    // The audit names no identifier: only counts, leaves and a digest.
    expect(JSON.stringify(entries)).not.toContain('576937');

    // Under a legal hold, neither goes.
    expect((await setConstanciasLegalHold(TEST_ACTOR, integration.id, true)).ok).toBe(true);
    const held = await aged('req_constancia_held_9y', 9);
    expect(await purgeExpiredConstancias(recordsKeptFrom)).toEqual({ textsPurged: 0, proofsPurged: 0 });
    expect((await constanciaOfIntegration(integration.id, held.id))?.receipt).toBe(held.receipt);
    expect((await setConstanciasLegalHold(TEST_ACTOR, integration.id, false)).ok).toBe(true);
    expect(await purgeExpiredConstancias(recordsKeptFrom)).toEqual({ textsPurged: 1, proofsPurged: 1 });
  });

  it('purges a large backlog in batches, each with its own proof of deletion, until none past its retention is left', async () => {
    const handle = await database();
    const recordsKeptFrom = new Date(Date.now() - 2 * 365.25 * 86_400_000);
    const backlog = [];
    for (let n = 0; n < 5; n++) backlog.push(await aged(`req_constancia_backlog_${n}`, 3.05 - n / 100));
    const [{ last }] = await handle.rows<{ last: string | number | null }>(sql`select max(id) as last from audit_log`) as [{ last: string | number | null }];

    expect(await purgeExpiredConstancias(recordsKeptFrom, new Date(), { batchRows: 2 })).toEqual({ textsPurged: 5, proofsPurged: 0 });
    for (const receipt of backlog) expect(await constanciaOfIntegration(integration.id, receipt.id)).toMatchObject({ receipt: null });
    const audit = await handle.rows<{ after: { constancias: number; primeraHoja: number; ultimaHoja: number } | string }>(
      sql`select after from audit_log where action = 'constancia.text_purged' and id > ${Number(last ?? 0)} order by id`,
    );
    const proofs = audit.map((entry) => (typeof entry.after === 'string' ? JSON.parse(entry.after) : entry.after) as { constancias: number; primeraHoja: number; ultimaHoja: number });
    // Two, two and one: each batch its own statement and its own entry, the oldest first (here the first issued).
    expect(proofs.map((proof) => proof.constancias)).toEqual([2, 2, 1]);
    for (let n = 1; n < proofs.length; n++) expect(proofs[n]!.primeraHoja).toBeGreaterThan(proofs[n - 1]!.ultimaHoja);
    expect(await purgeExpiredConstancias(recordsKeptFrom, new Date(), { batchRows: 2 })).toEqual({ textsPurged: 0, proofsPurged: 0 });
  });

  it('keeps the proofs for 5 to 15 years, as an administrator sets', async () => {
    expect((await setConstanciaRetention(TEST_ACTOR, integration.id, 4)).ok).toBe(false);
    expect((await setConstanciaRetention(TEST_ACTOR, integration.id, 16)).ok).toBe(false);
    expect((await setConstanciaRetention(TEST_ACTOR, integration.id, 10)).ok).toBe(true);
    const kept = await aged('req_constancia_kept_8y', 8);
    await purgeExpiredConstancias(new Date());
    expect(await constanciaOfIntegration(integration.id, kept.id)).toMatchObject({ receipt: null });
  });
});
