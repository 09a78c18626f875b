// The operator CLI for billing, as operators run it: the balance history with its running
// balance, a monthly statement written as PDF and CSV, and the reconciliation's exit code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/root/settings';
import { monthPeriod } from '@/lib/flows/statements/figures';
import { configuredIssuer, issuerLines } from '@/lib/flows/statements/issuer';
import { previousMonth } from '@/lib/flows/statements/monthly';
import { pageLabel } from '@/lib/flows/statements/texts';
import { pdfTextLines } from '../support/pdf-text';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { INVOICE_MESSAGES } from '@/lib/presentation/invoice-messages';
import { cliFixture, publishServiceDecision, type IntegrationJson } from './cli-fixture';

const { testDb, cli, cliJson, createIntegration } = cliFixture('cli-billing');

interface HistoryJson {
  balanceCentavos: number;
  rows: Array<{ kind: string; amountCentavos: number; balanceAfterCentavos: number; note: string | null }>;
}

describe('operator CLI: billing', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows the balance history, newest first, with the balance after each movement', async () => {
    const created = await createIntegration('--balance', '10');
    await cliJson('integrations:top-up', created.nombre, '2.50', '--note', 'Depósito 9911');
    await cliJson('integrations:adjust', created.nombre, '-1.25', '--note', 'Corrección');
    const history = await cliJson<HistoryJson>('integrations:history', created.nombre);
    expect(history.rows.map((row) => [row.kind, row.amountCentavos, row.balanceAfterCentavos])).toEqual([
      ['adjustment', -125, 1125],
      ['top_up', 250, 1250],
      ['top_up', 1000, 1000],
    ]);
    expect(history.balanceCentavos).toBe(1125);
    const onlyTopUps = await cliJson<HistoryJson>('integrations:history', created.nombre, '--kind', 'top_up', '--limit', '1');
    expect(onlyTopUps.rows.map((row) => row.note)).toEqual(['Depósito 9911']);
    expect((await cli('integrations:history', created.nombre, '--kind', 'hold')).code).not.toBe(0);
  });

  it('adjusts by "+10" as its help writes it, and explains a wrong adjustment in Spanish (issue 24, point 10)', async () => {
    const created = await createIntegration('--balance', '5');
    const added = await cli('integrations:adjust', created.nombre, '+10', '--note', 'Bonificación');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('ajuste de Q 10.00, saldo Q 15.00');

    const malformed = await cli('integrations:adjust', created.nombre, 'diez', '--note', 'Bonificación');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('el monto del ajuste se escribe en quetzales con su signo, como +10.00 para sumar o -5.00 para restar (se recibió «diez»)');
    const belowZero = await cli('integrations:adjust', created.nombre, '-100', '--note', 'Corrección');
    expect(belowZero.code).toBe(2);
    expect(belowZero.stderr).toContain('El ajuste dejaría el saldo por debajo de cero.');
    expect((await cliJson<HistoryJson>('integrations:history', created.nombre)).balanceCentavos).toBe(1500);
  });

  it('a top-up retried with the same --envio is credited once, and the retry says so with the first result (issue 30, point 2)', async () => {
    const created = await createIntegration('--balance', '5');
    const first = await cli('integrations:top-up', created.nombre, '7', '--note', 'Depósito 5521', '--envio', 'deposito-5521');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('recarga registrada, saldo Q 12.00');
    const retried = await cli('integrations:top-up', created.nombre, '7', '--note', 'Depósito 5521', '--envio', 'deposito-5521');
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('Esta orden ya se había hecho con --envio deposito-5521 y no se repitió. Su resultado:');
    expect(retried.stdout).toContain('recarga registrada, saldo Q 12.00');
    expect((await cliJson<HistoryJson>('integrations:history', created.nombre)).balanceCentavos).toBe(1200);
    const malformed = await cli('integrations:top-up', created.nombre, '7', '--note', 'Depósito 5522', '--envio', 'dos palabras');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--envio admite de 1 a 100 letras, números, «.», «_», «:» o «-»');
    expect((await cliJson<HistoryJson>('integrations:history', created.nombre)).balanceCentavos).toBe(1200);
  });

  it('before any app instance has said whether top-ups are invoiced, credits and leaves the invoice to the first one that starts (issue 64, point 4)', async () => {
    const created = await createIntegration('--balance', '5');
    await testDb().use((handle) => handle.rows(sql`delete from invoicing_decision`));
    // As after a migration job, before the app first starts: credited, and said so.
    const topped = await cli('integrations:top-up', created.nombre, '150', '--note', 'Depósito 7781');
    expect(topped.code, topped.stderr).toBe(0);
    expect(topped.stdout).toContain(INVOICE_MESSAGES.deferred);
    const withBalance = await cliJson<IntegrationJson>('integrations:create', 'cli-billing-sin-decision', '--balance', '10');
    const waiting = () =>
      testDb().use((handle) =>
        handle.rows<{ id: string | number; integration_id: number; reason: string | null; invoice: string | number | null }>(sql`
          select e.id, e.integration_id, e.no_invoice_reason as reason, i.id as invoice from ledger_entries e left join invoices i on i.ledger_entry_id = e.id
           where e.kind = 'top_up' and e.integration_id in (${created.id}::integer, ${withBalance.id}::integer) order by e.id`),
      );
    const before = await waiting();
    expect(before.filter((row) => row.reason === 'awaiting_decision').map((row) => Number(row.integration_id))).toEqual([created.id, withBalance.id]);
    // The first instance to start decides: it invoices, so those two get their invoice rows, and nothing else changes.
    await testDb().use(() => publishServiceDecision({ FEL_ENABLED: true }));
    const after = await waiting();
    expect(after.filter((row) => row.reason === 'awaiting_decision')).toEqual([]);
    for (const row of before.filter((candidate) => candidate.reason === 'awaiting_decision')) {
      expect(after.find((candidate) => Number(candidate.id) === Number(row.id))!.invoice).not.toBeNull();
    }
    expect((await cliJson<HistoryJson>('integrations:history', created.nombre)).balanceCentavos).toBe(15_500);
    await testDb().use(() => publishServiceDecision({ FEL_ENABLED: false }));
  });

  it('issues a statement for a closed month and writes its PDF and CSV', async () => {
    const created = await createIntegration('--balance', '5');
    const month = previousMonth();
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-statements-'));
    try {
      // Created this month: last month's statement would be empty and kept forever, so it is refused (issue 24, defect 13).
      const refused = await cli('statements:create', created.nombre, month, '--out', directory);
      expect(refused.code).not.toBe(0);
      expect(fs.readdirSync(directory)).toEqual([]);
      // An integration that existed last month gets it.
      await testDb().use((handle) =>
        handle.rows(sql`update integrations set created_at = ${monthPeriod(month).from.toISOString()}::timestamptz - interval '1 day' where id = ${created.id}::integer`),
      );
      const statement = await cliJson<{ id: number; month: string; files: string[]; figures: { closingBalanceCentavos: number } }>(
        'statements:create', created.nombre, month, '--out', directory,
      );
      expect(statement.month).toBe(month);
      // Its money came this month: last month it had nothing.
      expect(statement.figures.closingBalanceCentavos).toBe(0);
      expect(statement.files.map((file) => path.basename(file))).toEqual([`estado-de-cuenta-${created.nombre}-${month}.pdf`, `consultas-cobradas-${created.nombre}-${month}.csv`]);
      expect(fs.readFileSync(statement.files[0]!).subarray(0, 5).toString()).toBe('%PDF-');
      // It names its issuer (development's, unconfigured here: the invoices' own, NIT 576937-K) and
      // numbers its page (issue 32, point 7).
      const lines = pdfTextLines(fs.readFileSync(statement.files[0]!));
      expect(lines).toEqual(expect.arrayContaining([...issuerLines(configuredIssuer(parseEnv({}))), pageLabel(1, 1)]));
      expect(lines).toContain('NIT del emisor: 576937-K');
      // Issued once: asking again finds the same statement.
      expect((await cliJson<{ id: number }>('statements:create', created.nombre, month)).id).toBe(statement.id);
      expect((await cli('statements:create', created.nombre, '2026-13')).code).not.toBe(0);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('reconciles: exit 0 when everything agrees, 1 with the differences when not', async () => {
    const created = await createIntegration('--balance', '3');
    expect((await cli('ledger:verify')).code).toBe(0);
    await testDb().use((handle) => handle.rows(sql`update integrations set balance_centavos = balance_centavos + 1 where id = ${created.id}::integer`));
    const broken = await cli('ledger:verify', '--integration', created.nombre);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`Integración #${created.id} «${created.nombre}»: El saldo no es la suma del libro mayor`);
  });
});
