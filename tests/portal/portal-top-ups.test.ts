// Top-up requests through the built app (issue 34, point 3): a billing person reports a deposit
// with its slip in the portal, the same bank and reference is refused, a developer is refused, a
// slip that only claims to be an image is refused, the slip is served with its checked type; in
// the console support reads the pending list and the badge, ten approvals sent at once credit once
// (the ledger reconciles), and a rejection needs a reason and moves no money. One deposit typed
// with other punctuation ("DUP777" after "DUP-777") is refused as the same one; a deposit older
// than the window (90 days, or the operator's TOP_UP_DEPOSIT_MAX_AGE_DAYS) is refused naming the
// earliest day taken. Recargas and /docs show the service's accounts to deposit to
// (TOP_UP_BANK_ACCOUNTS) and what to write on the slip; with none configured, whom to ask.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { ledgerEntries, onlinePayments, portalUsers, topUpRequests } from '@/db/schema';
import { ACTION_MESSAGES } from '@/lib/flows/auth/action';
import { balanceAndLedgerSum } from '@/lib/core/billing/ledger';
import { verifyLedger } from '@/lib/core/billing/verify';
import { dayText } from '@/lib/platform/time/months';
import { formatQuetzales } from '@/lib/platform/money';
import { PORTAL_ACTION_MESSAGES } from '@/lib/surfaces/portal/action';
import { depositTooOldMessage } from '@/lib/flows/top-ups/messages';
import { ONLINE_PAYMENTS_OFF_NOTICE, ONLINE_TOP_UP_MESSAGES } from '@/lib/flows/online-top-ups/messages';
import { TOP_UP_MESSAGES } from '@/lib/flows/top-ups/requests';
import { MAX_SLIP_BYTES, SLIP_MESSAGES } from '@/lib/flows/top-ups/slips';
import { TOP_UP_REPORTERS } from '@/lib/flows/portal-identity/roles';
import { createTestIntegration, startGateway, type Gateway, type TestIntegration } from '../conformance/harness';
import { depositDaysAgo, shownDay } from '../support/deposit-dates';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { expectPortalRefusal, says, type PortalClient } from '../support/portal-client';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

/** Next's default limit for a server action's body, which every page but Recargas keeps (proxy.ts). */
const FORM_BODY_LIMIT_FOR_TEST = 1024 * 1024;
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1]);
const people = { billing: 'pagos-recargas@example.com', developer: 'dev-recargas@example.com' } as const;
const SUPPORT_EMAIL = 'soporte@pasarela-recargas.example';
const BANK_ACCOUNTS = [
  { bank: 'BI', type: 'monetaria', number: '123-456789-0', holder: 'Servicios de Consulta Tributaria, S.A.', currency: 'GTQ' },
  { bank: 'BANRURAL', type: 'ahorro', number: '3-033-12345-6', holder: 'Servicios de Consulta Tributaria, S.A.', currency: 'USD' },
];
/** The accounts as the page's table shows them, a row each. */
const ACCOUNTS_SHOWN = [
  ['Banco Industrial', 'Monetaria', '123-456789-0', 'Servicios de Consulta Tributaria, S.A.', 'Quetzales (GTQ)'],
  ['Banrural', 'De ahorro', '3-033-12345-6', 'Servicios de Consulta Tributaria, S.A.', 'Dólares (USD)'],
];

let testDatabase: TestDatabase;
let gateway: Gateway;
let integration: TestIntegration;
let admin: { email: string; password: string };
let support: { email: string; password: string };
let billing: PortalClient;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('recargas-http', { balanceCentavos: 5_000 });
  await addPortalMember(integration, people.billing, 'facturacion');
  await addPortalMember(integration, people.developer, 'desarrollador');
  admin = await newConsoleUser('admin-recargas@example.com', 'admin');
  support = await newConsoleUser('soporte-recargas@example.com', 'support');
  gateway = await startGateway(testDatabase, { env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '500', TOP_UP_BANK_ACCOUNTS: JSON.stringify(BANK_ACCOUNTS), SUPPORT_CONTACT_EMAIL: SUPPORT_EMAIL } });
  billing = await portalSignedIn(gateway.app.baseUrl, people.billing);
}, PROCESS_TEST_TIMEOUT_MS * 2);

/** The rows of the deposit accounts' table, each its cells' text. */
function depositAccountsShown(html: string): string[][] {
  return [...html.matchAll(/<tr data-testid="deposit-account">([\s\S]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1]!));
}

afterAll(async () => {
  await gateway?.stop();
  await testDatabase?.cleanup();
});

const report = (person: PortalClient, fields: Record<string, string>, slip?: Blob) =>
  person.serverActionWithFiles('/portal/recargas', 'reportTopUpAction', { banco: 'BI', fecha: depositDaysAgo(7), monto: '1,250.50', envio: crypto.randomUUID(), ...fields }, slip ? { boleta: slip } : {});

const requestsOf = () => gateway.withDatabase(async () => (await db()).select().from(topUpRequests).where(eq(topUpRequests.integrationId, integration.id)).orderBy(topUpRequests.id));
const balance = () => gateway.withDatabase(() => balanceAndLedgerSum(integration.id));

describe('the portal', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('takes a billing person’s report with its slip, moves no money, lists it and serves the slip as it is', async () => {
    const answer = await report(billing, { referencia: ' 4455 6677 ' }, new Blob([PNG], { type: 'image/png' }));
    expect(answer.status).toBe(200);
    expect(says(answer, 'La administración lo revisará'), answer.text.slice(0, 500)).toBe(true);
    const [request] = await requestsOf();
    expect(request).toMatchObject({ state: 'pending', bank: 'BI', reference: '4455 6677', referenceKey: '44556677', amountCentavos: 125_050 });
    expect(await balance()).toEqual({ balanceCentavos: 5_000, ledgerSumCentavos: 5_000 });

    const page = await billing.request('/portal/recargas');
    expect(page.status).toBe(200);
    expect(page.text).toContain('4455 6677');
    expect(page.text).toContain('Pendiente de revisión');
    expect(page.text).toContain(formatQuetzales(125_050));
    // Without a payment provider configured, paying online is neither offered nor taken.
    expect(page.text).not.toContain('Pagar en línea');
    expect(says(await billing.serverAction('/portal/recargas', 'startOnlineTopUpAction', { monto: '150.00', envio: crypto.randomUUID() }), ONLINE_TOP_UP_MESSAGES.off)).toBe(true);

    const slip = await billing.request(`/portal/recargas/${request!.id}/boleta`);
    expect(slip.status).toBe(200);
    expect(slip.headers.get('content-type')).toBe('image/png');
    expect(slip.headers.get('x-content-type-options')).toBe('nosniff');
    expect(slip.headers.get('content-disposition')).toBe(`attachment; filename="boleta-recarga-${request!.id}.png"`);
    expect(Buffer.from(await billing.requestBytes(`/portal/recargas/${request!.id}/boleta`))).toEqual(Buffer.from(PNG));
  });

  it('refuses the same bank and reference again, and a slip that only claims to be an image', async () => {
    const again = await report(billing, { referencia: '44556677' });
    expect(says(again, TOP_UP_MESSAGES.duplicate)).toBe(true);
    const disguised = await report(billing, { referencia: 'OTRA-1' }, new Blob(['<html><script>alert(1)</script>'], { type: 'image/png' }));
    expect(says(disguised, SLIP_MESSAGES.wrongType)).toBe(true);
    expect(await requestsOf()).toHaveLength(1);
  });

  it('takes a body of over 5 MB on Recargas, to refuse its slip in Spanish, and refuses one over 1 MB on any other page before reading it', async () => {
    const heavy = new Uint8Array(MAX_SLIP_BYTES + 1);
    heavy.set(PNG);
    const tooLarge = await report(billing, { referencia: 'PESADA-1' }, new Blob([heavy], { type: 'image/png' }));
    expect(tooLarge.status).toBe(200);
    expect(says(tooLarge, SLIP_MESSAGES.tooLarge), tooLarge.text.slice(0, 300)).toBe(true);
    for (const page of ['/portal/ingresar', '/admin/login', '/portal/cuenta']) {
      const answer = await fetch(`${gateway.app.baseUrl}${page}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'next-action': '0'.repeat(42), origin: gateway.app.baseUrl },
        body: new Uint8Array(FORM_BODY_LIMIT_FOR_TEST + 1),
      });
      expect(answer.status, page).toBe(413);
      expect(await answer.text(), page).toBe('Solicitud demasiado grande: este formulario acepta hasta 1 MB.');
    }
    expect(await requestsOf()).toHaveLength(1);
  });

  it('refuses a developer the page, the action and the slip', async () => {
    const developer = await portalSignedIn(gateway.app.baseUrl, people.developer);
    const page = await developer.request('/portal/recargas');
    expectPortalRefusal(page, TOP_UP_REPORTERS);
    const answer = await report(developer, { referencia: 'DEV-1' });
    expect(says(answer, PORTAL_ACTION_MESSAGES.forbidden)).toBe(true);
    const [request] = await requestsOf();
    expectPortalRefusal(await developer.request(`/portal/recargas/${request!.id}/boleta`), TOP_UP_REPORTERS, 'descarga');
    expect(await requestsOf()).toHaveLength(1);
  });
});

describe('the console', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('shows support the pending request, its slip inline and the badge, and refuses support’s approval', async () => {
    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    const page = await staff.request('/admin/recargas');
    expect(page.status).toBe(200);
    expect(page.text).toContain('4455 6677');
    expect(page.text).toMatch(/data-testid="nav-count"[^>]*>1</);
    const [request] = await requestsOf();
    expect(page.text).toContain(`/admin/recargas/${request!.id}/boleta`);
    const slip = await staff.request(`/admin/recargas/${request!.id}/boleta`);
    expect(slip.status).toBe(200);
    expect(slip.headers.get('content-type')).toBe('image/png');
    expect(slip.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(slip.headers.get('x-content-type-options')).toBe('nosniff');
    const refused = await staff.serverAction('/admin/recargas', 'approveTopUpRequestAction', { solicitud: String(request!.id), envio: crypto.randomUUID() });
    expect(says(refused, ACTION_MESSAGES.forbidden)).toBe(true);
    expect((await requestsOf())[0]!.state).toBe('pending');
  });

  it('credits once when ten approvals are sent at once, with the bank and reference in the note, and the ledger reconciles', async () => {
    const administrator = await consoleSignedIn(gateway.app.baseUrl, admin);
    const [request] = await requestsOf();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => administrator.serverAction('/admin/recargas', 'approveTopUpRequestAction', { solicitud: String(request!.id), envio: crypto.randomUUID() })),
    );
    expect(answers.filter((answer) => says(answer, 'acreditada'))).toHaveLength(1);
    expect(answers.filter((answer) => says(answer, TOP_UP_MESSAGES.decided))).toHaveLength(9);
    expect(await balance()).toEqual({ balanceCentavos: 5_000 + 125_050, ledgerSumCentavos: 5_000 + 125_050 });
    const [approved] = await requestsOf();
    expect(approved).toMatchObject({ state: 'approved', decidedBy: expect.stringContaining(admin.email) });
    const [entry] = await gateway.withDatabase(async () => (await db()).select().from(ledgerEntries).where(eq(ledgerEntries.id, approved!.ledgerEntryId!)));
    expect(entry).toMatchObject({ kind: 'top_up', amountCentavos: 125_050 });
    expect(entry!.note).toContain('Banco Industrial');
    expect(entry!.note).toContain('4455 6677');
    expect((await gateway.withDatabase(() => verifyLedger({ trigger: 'cli', sweepAfterSeconds: 60 }))).ok).toBe(true);

    const movements = await billing.request('/portal/movimientos');
    // The note as a person reads it: the deposit's day dd/mm/aaaa, no internal request number.
    const note = `Depósito Banco Industrial, referencia 4455 6677, del ${dayText(request!.depositDate)}`;
    expect(entry!.note).toBe(note);
    expect(movements.text).toContain(note);
    expect(movements.text).not.toContain(request!.depositDate);
    expect(movements.text).not.toContain('(solicitud');
    expect((await billing.request('/portal/recargas')).text).toContain('Acreditada');
    // Approved, the reference stays taken.
    expect(says(await report(billing, { referencia: '4455 6677' }), TOP_UP_MESSAGES.duplicate)).toBe(true);
  });

  it('rejects only with a reason, moves no money, and the integration reads the reason', async () => {
    expect(says(await report(billing, { referencia: 'RECHAZO-7', monto: '99' }), 'La administración lo revisará')).toBe(true);
    const request = (await requestsOf()).find((row) => row.reference === 'RECHAZO-7')!;
    const before = await balance();
    const administrator = await consoleSignedIn(gateway.app.baseUrl, admin);
    const empty = await administrator.serverAction('/admin/recargas', 'rejectTopUpRequestAction', { solicitud: String(request.id), motivo: ' ', envio: crypto.randomUUID() });
    expect(says(empty, TOP_UP_MESSAGES.reason)).toBe(true);
    const rejected = await administrator.serverAction('/admin/recargas', 'rejectTopUpRequestAction', {
      solicitud: String(request.id),
      motivo: 'El depósito no aparece en el estado de cuenta del banco.',
      envio: crypto.randomUUID(),
    });
    expect(says(rejected, 'rechazada')).toBe(true);
    expect(await balance()).toEqual(before);
    expect((await billing.request('/portal/recargas')).text).toContain('El depósito no aparece en el estado de cuenta del banco.');
    expect((await administrator.request('/admin/recargas')).text).toContain('No hay recargas pendientes');
  });
});

describe('the lists, at more than a page', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('show 50 requests at a time: the portal\'s newest first, the console\'s pending oldest first with their count, each reaching the rest by its link', async () => {
    await gateway.withDatabase(async () => {
      const database = await db();
      const [reporter] = await database.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, people.billing));
      await database.insert(topUpRequests).values(
        Array.from({ length: 55 }, (_, index) => ({
          integrationId: integration.id,
          reportedBy: reporter!.id,
          bank: 'BAM',
          reference: `LOTE-${index + 1}`,
          depositDate: depositDaysAgo(6),
          amountCentavos: 10_000 + index,
          createdAt: new Date(Date.parse('2026-11-21T15:00:00Z') + index * 60_000),
        })),
      );
    });
    const referencesIn = (html: string) => [...html.matchAll(/LOTE-(\d+)/g)].map((match) => Number(match[1]));
    const first = await billing.request('/portal/recargas');
    const newest = referencesIn(first.text);
    expect(newest.slice(0, 3)).toEqual([55, 54, 53]);
    const older = /href="(\/portal\/recargas\?despues=[^"]+)"/.exec(first.text)?.[1];
    expect(older).toBeDefined();
    const rest = await billing.request(older!.replaceAll('&amp;', '&'));
    expect(referencesIn(rest.text).filter((reference) => !newest.includes(reference)).length).toBeGreaterThan(0);
    expect(new Set([...newest, ...referencesIn(rest.text)])).toEqual(new Set(Array.from({ length: 55 }, (_, index) => index + 1)));

    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    const pending = await staff.request('/admin/recargas');
    expect(pending.text).toContain('55 solicitudes pendientes en total');
    expect(referencesIn(pending.text).filter((_, index, all) => all.indexOf(all[index]!) === index).slice(0, 3)).toEqual([1, 2, 3]);
    const next = /href="(\/admin\/recargas\?despues=[^"]+)"/.exec(pending.text)?.[1];
    expect(next).toBeDefined();
    const nextPage = await staff.request(next!.replaceAll('&amp;', '&'));
    expect(referencesIn(nextPage.text)).toContain(55);
    expect(referencesIn(nextPage.text)).not.toContain(1);
  });
});

describe('one deposit, however it is typed', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('refuses "DUP777", "dup 777" and "DUP.777" after "DUP-777" at the same bank, keeps the first as typed, and takes it at another bank', async () => {
    expect(says(await report(billing, { referencia: 'DUP-777', monto: '10' }), 'La administración lo revisará')).toBe(true);
    for (const typed of ['DUP777', 'dup 777', 'DUP.777']) {
      const again = await report(billing, { referencia: typed, monto: '10' });
      expect(again.status, typed).toBe(200);
      expect(says(again, TOP_UP_MESSAGES.duplicate), `${typed}: ${again.text.slice(0, 300)}`).toBe(true);
    }
    expect((await requestsOf()).filter((row) => row.referenceKey === 'DUP777').map((row) => [row.bank, row.reference])).toEqual([['BI', 'DUP-777']]);
    expect(says(await report(billing, { referencia: 'DUP777', banco: 'BAM', monto: '10' }), 'La administración lo revisará')).toBe(true);
  });

  it('shows each pending request reported before that rule beside the others of its deposit, in "Recargas pendientes"', async () => {
    // As migration 0046 leaves two reports typed apart before: the first holds the key, the other is set apart.
    const [held, earlier] = await gateway.withDatabase(async () => {
      const database = await db();
      const [reporter] = await database.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, people.billing));
      return database
        .insert(topUpRequests)
        .values(
          ['ANT-55', 'ANT.55'].map((reference, index) => ({
            integrationId: integration.id,
            reportedBy: reporter!.id,
            bank: 'GYT',
            reference,
            depositDate: depositDaysAgo(40),
            amountCentavos: 40_000,
            legacyDuplicate: index > 0,
            // The oldest pending requests: the first page shows them.
            createdAt: new Date(Date.parse('2026-01-02T15:00:00Z') + index * 60_000),
          })),
        )
        .returning();
    });
    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    const html = (await staff.request('/admin/recargas')).text;
    const notices = [...html.matchAll(/data-testid="pending-top-up-shared"[^>]*>([^<]*)</g)].map((match) => match[1]!.replaceAll('&quot;', '"').replaceAll('&#x27;', "'"));
    expect(notices).toHaveLength(2);
    expect(notices[0]).toContain(`Misma referencia en G&amp;T Continental que la solicitud #${earlier!.id} de «${integration.nombre}» (ANT.55, Q 400.00, pendiente de revisión)`);
    expect(notices[1]).toContain(`que la solicitud #${held!.id} de «${integration.nombre}» (ANT-55, Q 400.00, pendiente de revisión)`);
  });
});

describe('where to deposit', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it("Recargas shows the service's accounts beside the form, and the integration's login to write on the slip", async () => {
    const page = (await billing.request('/portal/recargas')).text;
    expect(depositAccountsShown(page)).toEqual(ACCOUNTS_SHOWN);
    expect(page).toContain('Dónde depositar');
    expect(page).toContain(`escriba el login de su integración, <code>${integration.nombre}</code>`);
    expect(page).not.toContain('data-testid="deposit-accounts-none"');
    // Beside the form: before it on the page.
    expect(page.indexOf('data-testid="deposit-accounts"')).toBeLessThan(page.indexOf('name="referencia"'));
  });

  it('/docs shows the same accounts, and says to write the login of the x-integracion-login header', async () => {
    const docs = await fetch(`${gateway.app.baseUrl}/docs`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(depositAccountsShown(html)).toEqual(ACCOUNTS_SHOWN);
    expect(html).toContain('escriba el login de su integración (el de la cabecera <code>x-integracion-login</code>)');
    // A 402's next step is Recargas now, not a request to the administrator.
    expect(html).toContain('reporta el depósito en <strong>Recargas</strong>');
    expect(html).not.toContain('pida una recarga al administrador');
  });
});

describe('the deposit date', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('takes a deposit of 89 days ago, refuses one of 91 days ago and one of 1999 naming the earliest day (90 days ago), and offers only that range', async () => {
    const earliest = depositDaysAgo(90);
    const tooOld = depositTooOldMessage(earliest, 90);
    expect(tooOld).toContain(shownDay(earliest));
    for (const fecha of [depositDaysAgo(91), '1999-11-20']) {
      const refused = await report(billing, { referencia: `VIEJA-${fecha}`, fecha, monto: '10' });
      expect(refused.status, fecha).toBe(200);
      expect(says(refused, tooOld), `${fecha}: ${refused.text.slice(0, 300)}`).toBe(true);
    }
    expect(says(await report(billing, { referencia: 'RECIENTE-89', fecha: depositDaysAgo(89), monto: '10' }), 'La administración lo revisará')).toBe(true);
    expect((await requestsOf()).filter((row) => row.reference.startsWith('VIEJA-'))).toEqual([]);
    const dateField = /<input[^>]*name="fecha"[^>]*>/.exec((await billing.request('/portal/recargas')).text)?.[0];
    expect(dateField).toContain(`min="${earliest}"`);
    expect(dateField).toContain(`max="${depositDaysAgo(0)}"`);
  });

  it('honours the window the operator set (TOP_UP_DEPOSIT_MAX_AGE_DAYS=30)', async () => {
    await gateway.stop();
    gateway = await startGateway(testDatabase, {
      env: { TRUSTED_PROXY_HOPS: '1', RATE_LIMIT_SIGN_IN_PER_MINUTE: '500', TOP_UP_DEPOSIT_MAX_AGE_DAYS: '30', TOP_UP_BANK_ACCOUNTS: '[]', SUPPORT_CONTACT_EMAIL: SUPPORT_EMAIL },
    });
    billing = await portalSignedIn(gateway.app.baseUrl, people.billing);
    const earliest = depositDaysAgo(30);
    expect(says(await report(billing, { referencia: 'VENTANA-31', fecha: depositDaysAgo(31), monto: '10' }), depositTooOldMessage(earliest, 30))).toBe(true);
    expect(says(await report(billing, { referencia: 'VENTANA-30', fecha: earliest, monto: '10' }), 'La administración lo revisará')).toBe(true);
  });
});

describe('online payments off (no PAYMENTS_PROVIDER, the app started above)', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('the console’s Recargas shows no «Pagos en línea» while none were made, and says payments are off beside earlier ones', async () => {
    const staff = await consoleSignedIn(gateway.app.baseUrl, support);
    const before = (await staff.request('/admin/recargas')).text;
    expect(before).not.toContain('id="pagos-en-linea"');
    expect(before).not.toContain('Pagos en línea');
    // One made while payments were on: listed, under a plain notice that they are off now.
    await gateway.withDatabase(async () => {
      const [person] = await (await db()).select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, people.billing));
      await (await db()).insert(onlinePayments).values({ id: 'recarga-00000000-0000-4000-8000-00000000a001', integrationId: integration.id, startedBy: person!.id, amountCentavos: 10_000, provider: 'recurrente', state: 'expired', expiresAt: new Date() });
    });
    const after = (await staff.request('/admin/recargas')).text;
    expect(after).toContain('id="pagos-en-linea"');
    expect(after).toContain(ONLINE_PAYMENTS_OFF_NOTICE);
    expect(after).toContain('/admin/recargas/pagos/recarga-00000000-0000-4000-8000-00000000a001');
  });
});

describe('where to deposit, with no accounts configured (TOP_UP_BANK_ACCOUNTS=[], the app started above)', { timeout: PROCESS_TEST_TIMEOUT_MS * 2 }, () => {
  it('Recargas and /docs say to ask the service for them, with its address, and show no empty table', async () => {
    const page = (await billing.request('/portal/recargas')).text;
    const docs = await (await fetch(`${gateway.app.baseUrl}/docs`)).text();
    for (const [where, html] of [['Recargas', page], ['/docs', docs]] as const) {
      expect(html, where).toContain('Las cuentas bancarias del servicio no están publicadas aquí: pida a');
      expect(html, where).toContain(`href="mailto:${SUPPORT_EMAIL}"`);
      expect(html, where).not.toContain('data-testid="deposit-accounts"');
      expect(depositAccountsShown(html), where).toEqual([]);
    }
  });
});
