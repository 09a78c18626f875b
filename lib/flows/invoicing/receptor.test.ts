// The receptor an integration's invoices name, and "Por corregir", on a real database against the
// certifier simulator: a NIT's check character is verified before anything is asked, its name is
// SAT's (the certifier's lookup) and is saved only as it was shown; CUI and CF are kept too; the
// top-up's invoice names the receptor set. An invoice the certifier refused is fixed by correcting
// the receptor and retried with the same identifier, which the certifier then certifies once;
// a second retry changes nothing, and both changes are in the audit.
import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog, integrations, invoices, type Invoice } from '@/db/schema';
import type { Actor } from '@/lib/core/audit/audit';
import { topUp } from '@/lib/core/billing/ledger';
import { allSettings as env } from '@/lib/root/settings';
import { createTestIntegration, type TestIntegration } from '@/tests/conformance/harness';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { FEL_SIM_RECEPTORS } from '../../../simulator/fel';
import { startSimulator, type RunningSimulator } from '../../../simulator/server';
import { CORRECTION_MESSAGES, retryInvoice } from './corrections';
import { invoicesInQueue } from './queue';
import { BILLING_MESSAGES, lookUpReceptor, RECEPTOR_MESSAGES, setBillingContact, setIntegrationReceptor } from './receptor';
import { certifierOf, issuerOf } from './settings';
import { createInvoiceWorker } from './worker';

const ADMIN: Actor = { kind: 'user', id: 7, email: 'admin@servicio.example' };
const [EMPRESA, PERSONA] = FEL_SIM_RECEPTORS;
/** Valid check characters, not in the simulated registry. */
const UNREGISTERED_NIT = '910000042';
const VALID_CUI = '1587564440904';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;

async function settleAll(timeoutMs = 20_000): Promise<void> {
  const settings = env();
  const worker = createInvoiceWorker({ certifier: certifierOf(settings)!, issuer: issuerOf(settings)!, name: 'w', backoffBaseMs: 20, backoffCeilingMs: 200, leaseSeconds: 30 });
  const ends = Date.now() + timeoutMs;
  while ((await invoicesInQueue()) > 0) {
    if (Date.now() > ends) throw new Error('invoices still in the queue');
    await worker.runOnce();
  }
}

async function invoiceOfTopUp(integration: TestIntegration, amountCentavos: number): Promise<Invoice> {
  const credited = await topUp(ADMIN, integration.id, amountCentavos, 'Depósito de prueba');
  if (!credited.ok) throw new Error(credited.error.message);
  const [invoice] = await (await db()).select().from(invoices).where(eq(invoices.ledgerEntryId, credited.value.entry.id));
  return invoice!;
}

async function reread(invoice: Invoice): Promise<Invoice> {
  return (await (await db()).select().from(invoices).where(eq(invoices.id, invoice.id)))[0]!;
}

async function auditOf(integration: TestIntegration, action: string) {
  return (await db())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(integration.id))))
    .orderBy(asc(auditLog.id));
}

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  Object.assign(process.env, { FEL_ENABLED: 'true', FEL_CERTIFIER_BASE_URL: `${simulator.url}/fel`, FEL_NIT_LOOKUP_BASE_URL: `${simulator.url}/fel/receptores` });
  resetEnvCache();
});
afterAll(async () => {
  await simulator?.close();
  await testDatabase?.cleanup();
});

describe('looking a receptor up', () => {
  it('refuses a NIT with a wrong check character, in Spanish, without asking the certifier', async () => {
    const asked: string[] = [];
    const certifier = { ...certifierOf(env())!, lookupNitName: async (nit: string) => (asked.push(nit), { kind: 'not_found' as const }) };
    expect(await lookUpReceptor({ kind: 'nit', identifier: '91000001-9' }, certifier)).toEqual({ ok: false, error: { code: 'invalid', message: RECEPTOR_MESSAGES.nitInvalid, field: 'identificador' } });
    expect(await lookUpReceptor({ kind: 'nit', identifier: VALID_CUI }, certifier)).toMatchObject({ ok: false, error: { message: RECEPTOR_MESSAGES.nitIsCui } });
    expect(asked).toEqual([]);
  });

  it("takes a NIT's name from the certifier's lookup, as SAT has it", async () => {
    expect(await lookUpReceptor({ kind: 'nit', identifier: '91000001-8' })).toEqual({ ok: true, value: { kind: 'nit', nit: EMPRESA.nit, name: EMPRESA.name } });
    expect(await lookUpReceptor({ kind: 'nit', identifier: UNREGISTERED_NIT })).toMatchObject({ ok: false, error: { code: 'not_found', message: RECEPTOR_MESSAGES.nitNotFound } });
  });

  it('checks a CUI and its name; CF needs neither', async () => {
    expect(await lookUpReceptor({ kind: 'cui', identifier: '1587 56444 0904', name: ' Ana Pérez ' })).toEqual({ ok: true, value: { kind: 'cui', cui: VALID_CUI, name: 'Ana Pérez' } });
    expect(await lookUpReceptor({ kind: 'cui', identifier: '1587564430904', name: 'Ana' })).toMatchObject({ ok: false, error: { message: RECEPTOR_MESSAGES.cuiInvalid } });
    expect(await lookUpReceptor({ kind: 'cui', identifier: VALID_CUI, name: '  ' })).toMatchObject({ ok: false, error: { message: RECEPTOR_MESSAGES.nameRequired, field: 'nombre' } });
    expect(await lookUpReceptor({ kind: 'cf' })).toEqual({ ok: true, value: { kind: 'cf' } });
  });
});

describe("an integration's receptor", () => {
  it('is saved only with the name that was shown, audited, and names the next invoices', async () => {
    const integration = await createTestIntegration('receptor-nit', { balanceCentavos: 0 });
    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'nit', identifier: EMPRESA.nit, shownName: 'OTRO NOMBRE, S.A.' })).toMatchObject({
      ok: false,
      error: { code: 'name_changed', message: RECEPTOR_MESSAGES.nameChanged },
    });
    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'nit', identifier: '91000001-8', shownName: EMPRESA.name })).toMatchObject({ ok: true, value: { changed: true } });
    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'nit', identifier: EMPRESA.nit, shownName: EMPRESA.name })).toMatchObject({ ok: true, value: { changed: false } });
    const [row] = await (await db()).select().from(integrations).where(eq(integrations.id, integration.id));
    expect(row).toMatchObject({ receptorKind: 'nit', receptorId: EMPRESA.nit, receptorName: EMPRESA.name });
    const audited = await auditOf(integration, 'integration.set_receptor');
    expect(audited.map((entry) => [entry.before, entry.after])).toEqual([
      [{ receptorKind: null, receptorId: null, receptorName: null }, { receptorKind: 'nit', receptorId: EMPRESA.nit, receptorName: EMPRESA.name }],
    ]);

    // A top-up over the CF limit is invoiced to that NIT with SAT's name and certified.
    const invoice = await invoiceOfTopUp(integration, 300_000);
    expect(invoice).toMatchObject({ receptorKind: 'nit', receptorId: EMPRESA.nit, receptorName: EMPRESA.name });
    await settleAll();
    expect((await reread(invoice)).state).toBe('certified');
    expect(simulator.fel.certification(invoice.identifier)).toMatchObject({ receptorId: EMPRESA.nit, grandTotal: '3000.00' });
  });

  it('set to CF, a top-up of Q 2,500.00 is credited and its invoice waits; a CUI set later sends it, named, with its identifier (issue 64, point 2)', async () => {
    const integration = await createTestIntegration('receptor-cf', { balanceCentavos: 0 });
    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'cf' })).toMatchObject({ ok: true, value: { changed: true } });
    const waiting = await invoiceOfTopUp(integration, 250_000);
    expect(waiting).toMatchObject({ state: 'awaiting_receptor', receptorKind: 'cf' });
    await settleAll();
    expect((await reread(waiting)).state).toBe('awaiting_receptor');
    // Back to CF changes nothing for it; a CUI releases it.
    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'cui', identifier: VALID_CUI, name: 'Ana Pérez' })).toMatchObject({ ok: true, value: { changed: true, released: 1 } });
    expect(await reread(waiting)).toMatchObject({ state: 'pending', receptorKind: 'cui', receptorId: VALID_CUI, receptorName: 'Ana Pérez', identifier: waiting.identifier });
    expect(await invoiceOfTopUp(integration, 250_000)).toMatchObject({ state: 'pending', receptorKind: 'cui', receptorId: VALID_CUI, receptorName: 'Ana Pérez' });
    await settleAll();
    expect((await reread(waiting)).state).toBe('certified');
    expect(simulator.fel.certification(waiting.identifier)).toMatchObject({ receptorId: VALID_CUI, grandTotal: '2500.00' });
    const audited = await auditOf(integration, 'integration.set_receptor');
    expect(audited.at(-1)!.after).toMatchObject({ receptorKind: 'cui', releasedInvoices: 1 });
  });
});

describe('Por corregir', () => {
  it('an invoice the certifier refused is retried with the same identifier once the receptor is fixed, and certified once', async () => {
    const integration = await createTestIntegration('por-corregir', { balanceCentavos: 0 });
    // A receptor stored before the form checked names (or whose name SAT since changed): refused.
    await (await db()).update(integrations).set({ receptorKind: 'nit', receptorId: PERSONA.nit, receptorName: 'Juan Pérez' }).where(eq(integrations.id, integration.id));
    const invoice = await invoiceOfTopUp(integration, 10_000);
    await settleAll();
    const refused = await reread(invoice);
    expect(refused).toMatchObject({ state: 'to_correct', lastErrorCode: 'FEL_RCP004' });
    expect(refused.lastErrorMessage).toContain('El nombre del receptor no coincide con el registrado para su NIT.');
    expect(simulator.fel.certificationCount(invoice.identifier)).toBe(0);

    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'nit', identifier: PERSONA.nit, shownName: PERSONA.name })).toMatchObject({ ok: true });
    const [first, second] = await Promise.all([retryInvoice(ADMIN, invoice.id), retryInvoice(ADMIN, invoice.id)]);
    // Two clicks at once: one put it back in the queue, the other changed nothing.
    expect([first, second].map((result) => result.ok && result.value.queued).sort()).toEqual([false, true]);
    const queued = await reread(invoice);
    expect(queued).toMatchObject({ state: 'pending', identifier: invoice.identifier, receptorName: PERSONA.name, lastErrorCode: null });
    expect(queued.emittedAt).toEqual(invoice.emittedAt);
    await settleAll();
    const certified = await reread(invoice);
    expect(certified).toMatchObject({ state: 'certified', identifier: invoice.identifier });
    // The identifier the certifier refused was not used: it is certified now, once.
    expect(simulator.fel.certificationCount(invoice.identifier)).toBe(1);
    expect(simulator.fel.certification(invoice.identifier)!.uuid).toBe(certified.uuid);
    expect(await retryInvoice(ADMIN, invoice.id)).toEqual({ ok: true, value: { queued: false, state: 'certified' } });

    const audited = await auditOf(integration, 'invoice.retry');
    expect(audited).toHaveLength(1);
    expect(audited[0]!.before).toMatchObject({ invoiceId: invoice.id, identifier: invoice.identifier, lastErrorCode: 'FEL_RCP004', receptorName: 'Juan Pérez' });
    expect(audited[0]!.after).toMatchObject({ invoiceId: invoice.id, identifier: invoice.identifier, receptorName: PERSONA.name });
  });

  it('refuses to retry to CF from Q 2,500.00, and re-dates an invoice that would be past the emission window', async () => {
    const integration = await createTestIntegration('por-corregir-cf', { balanceCentavos: 0 });
    await setIntegrationReceptor(ADMIN, integration.id, { kind: 'nit', identifier: EMPRESA.nit, shownName: EMPRESA.name });
    const invoice = await invoiceOfTopUp(integration, 260_000);
    const sixDaysAgo = new Date(Date.now() - 6 * 86_400_000);
    await (await db()).update(invoices).set({ state: 'to_correct', emittedAt: sixDaysAgo, lastErrorCode: 'FEL_FEC001' }).where(eq(invoices.id, invoice.id));
    await setIntegrationReceptor(ADMIN, integration.id, { kind: 'cf' });
    expect(await retryInvoice(ADMIN, invoice.id)).toEqual({ ok: false, error: { code: 'receptor_refused', message: CORRECTION_MESSAGES.cfOverLimit } });
    expect((await reread(invoice)).state).toBe('to_correct');
    await setIntegrationReceptor(ADMIN, integration.id, { kind: 'nit', identifier: EMPRESA.nit, shownName: EMPRESA.name });
    expect(await retryInvoice(ADMIN, invoice.id)).toEqual({ ok: true, value: { queued: true } });
    const queued = await reread(invoice);
    expect(queued.emittedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await settleAll();
    expect(await reread(invoice)).toMatchObject({ state: 'certified' });
    expect(simulator.fel.certificationCount(invoice.identifier)).toBe(1);
  });
});

describe('one billing profile per integration (issue 64, point 1)', () => {
  it('is the integration’s razón social and NIT: saving the receptor sets both, consumidor final clears the NIT', async () => {
    const integration = await createTestIntegration('perfil-unico', { balanceCentavos: 0 });
    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'nit', identifier: EMPRESA.nit, shownName: EMPRESA.name })).toMatchObject({ ok: true });
    const read = async () => (await (await db()).select().from(integrations).where(eq(integrations.id, integration.id)))[0]!;
    expect(await read()).toMatchObject({ legalName: EMPRESA.name, nit: EMPRESA.nit, receptorName: EMPRESA.name, receptorId: EMPRESA.nit });
    expect(await setIntegrationReceptor(ADMIN, integration.id, { kind: 'cf' })).toMatchObject({ ok: true });
    expect(await read()).toMatchObject({ nit: null, receptorKind: 'cf' });
  });

  it('takes an address and an e-mail for invoices, audited; a wrong e-mail or a line break is refused, the same values change nothing', async () => {
    const integration = await createTestIntegration('perfil-direccion', { balanceCentavos: 0 });
    expect(await setBillingContact(ADMIN, integration.id, { direccion: 'Zona 1\nGuatemala', correo: '' })).toEqual({ ok: false, error: { code: 'invalid', message: BILLING_MESSAGES.addressInvalid } });
    expect(await setBillingContact(ADMIN, integration.id, { direccion: '', correo: 'facturas@' })).toEqual({ ok: false, error: { code: 'invalid', message: BILLING_MESSAGES.emailInvalid } });
    expect(await setBillingContact(ADMIN, integration.id, { direccion: ' 6a. Avenida 1-23, zona 1 ', correo: 'Facturas@Empresa.com.gt' })).toEqual({ ok: true, value: { changed: true } });
    expect(await setBillingContact(ADMIN, integration.id, { direccion: '6a. Avenida 1-23, zona 1', correo: 'facturas@empresa.com.gt' })).toEqual({ ok: true, value: { changed: false } });
    const audits = await (await db()).select().from(auditLog).where(and(eq(auditLog.action, 'integration.set_billing_contact'), eq(auditLog.targetId, String(integration.id))));
    expect(audits.map((audit) => [audit.before, audit.after])).toEqual([
      [{ billingAddress: null, invoiceEmail: null }, { billingAddress: '6a. Avenida 1-23, zona 1', invoiceEmail: 'facturas@empresa.com.gt' }],
    ]);
  });

  it('is what migration 0073 folds the Datos into: a razón social and NIT become the receptor where none was set; a set receptor wins', async () => {
    const folded = await createTestIntegration('perfil-de-datos', { balanceCentavos: 0 });
    const cui = await createTestIntegration('perfil-de-cui', { balanceCentavos: 0 });
    const kept = await createTestIntegration('perfil-con-receptor', { balanceCentavos: 0 });
    const handle = await db();
    await handle.update(integrations).set({ legalName: 'Cooperativa Norte, R.L.', nit: '576937K' }).where(eq(integrations.id, folded.id));
    await handle.update(integrations).set({ legalName: 'Juan Pérez', nit: '1587564440904' }).where(eq(integrations.id, cui.id));
    await handle.update(integrations).set({ legalName: 'Nombre viejo, S.A.', nit: '48291137', receptorKind: 'nit', receptorId: EMPRESA.nit, receptorName: EMPRESA.name }).where(eq(integrations.id, kept.id));
    const migrations = path.join(process.cwd(), 'db', 'migrations');
    const migration = fs.readFileSync(path.join(migrations, fs.readdirSync(migrations).find((name) => name.endsWith('_billing_profile.sql'))!), 'utf8');
    const folds = migration.split('--> statement-breakpoint').filter((statement) => /update "integrations"/i.test(statement));
    expect(folds).toHaveLength(2);
    for (const fold of folds) await handle.execute(sql.raw(fold));
    const rows = await handle.select().from(integrations).where(inArray(integrations.id, [folded.id, cui.id, kept.id])).orderBy(asc(integrations.id));
    expect(rows.map((row) => [row.receptorKind, row.receptorId, row.receptorName, row.legalName, row.nit])).toEqual([
      ['nit', '576937K', 'Cooperativa Norte, R.L.', 'Cooperativa Norte, R.L.', '576937K'],
      ['cui', '1587564440904', 'Juan Pérez', 'Juan Pérez', '1587564440904'],
      ['nit', EMPRESA.nit, EMPRESA.name, EMPRESA.name, EMPRESA.nit],
    ]);
  });
});
