// The operator CLI speaks to the people at the terminal in Spanish, as the console does (issue 24,
// defect 15): help, errors, confirmations and the reconciliation's verdict are Spanish sentences,
// not English and not JSON log lines; --json stays the same machine-readable answer.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { cliFixture } from './cli-fixture';

const { testDb, cli, cliJson, createIntegration } = cliFixture('cli-es');

// Sentences the CLI used to print in English; none may come back.
const OLD_ENGLISH = [
  'Operator CLI',
  'Amounts are quetzales',
  'they are stored as integer centavos',
  'create an integration',
  'prints its token once',
  'list integrations',
  'latest balance movements',
  'balance movements, newest first',
  'reconcile balances',
  'exits 1 on a difference',
  'set the tariff',
  'add (+10.00) to or take',
  'its tokens: label, state',
  'a further token',
  'replace a token',
  'the token stops working',
  'show or replace',
  'refuse its credentials',
  'create a console user',
  'remove a user',
  'most recent query records first',
  'deletes the query records',
  'bring every query record',
  'shown once',
  'store it now',
  'tariff Q ',
  'balance Q ',
  'enabled:',
  'allowed IPs',
  'purpose:',
  'not declared',
  'unknown command',
  'missing ',
  'must be',
  'no integration',
  'DIFFERENCES FOUND',
  'checked in',
];

/** The English sentences of OLD_ENGLISH found in `text`. */
function englishIn(text: string): string[] {
  return OLD_ENGLISH.filter((sentence) => text.toLowerCase().includes(sentence.toLowerCase()));
}

/** A pino line: the structured log, which is not for the person at the terminal. */
const JSON_LOG_LINE = /^\{.*"level":/m;

describe('operator CLI in Spanish (issue 24, defect 15)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('prints its help in Spanish, exit 0 when asked for, 1 when no command was given', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(englishIn(help.stdout)).toEqual([]);
    expect(help.stdout).toContain('CLI de operación: npm run cli -- <comando> [argumentos] [--json]');
    expect(help.stdout).toContain('integrations:adjust <id|nombre> <+Q|-Q> --note "..."');
    expect(help.stdout).toContain('suma (+10.00) al saldo o le resta (-5.00)');
    expect(help.stdout).toContain('Códigos de salida');

    const none = await cli();
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('CLI de operación');
  });

  it('refuses in Spanish: unknown commands and options, missing arguments, wrong amounts, unknown integrations', async () => {
    const unknownCommand = await cli('integrations:explode');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('Error: no existe el comando «integrations:explode»');
    expect(englishIn(unknownCommand.stderr)).toEqual([]);

    const unknownOption = await cli('integrations:list', '--colour');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain('Error: la opción «--colour» no existe');
    expect(unknownOption.stderr).not.toContain('Unknown option');

    const optionWithoutValue = await cli('integrations:top-up', 'x', '5', '--note');
    expect(optionWithoutValue.code).toBe(2);
    expect(optionWithoutValue.stderr).toContain('Error: la opción --note necesita un valor');

    const missing = await cli('integrations:tariff');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Error: falta la integración (su id o su nombre)');

    const created = await createIntegration('--balance', '5');
    const badTariff = await cli('integrations:tariff', created.nombre, 'uno');
    expect(badTariff.code).toBe(2);
    expect(badTariff.stderr).toContain('Error: la tarifa se escribe en quetzales, como 12.50 (se recibió «uno»)');

    const badKind = await cli('integrations:history', created.nombre, '--kind', 'hold');
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('Error: --kind admite recarga, ajuste, "consulta cobrada" o "constancia de consulta" (también top_up, adjustment, capture o constancia); se recibió «hold»');
    const badDay = await cli('integrations:history', created.nombre, '--since', '2026-02-31');
    expect(badDay.code).toBe(2);
    expect(badDay.stderr).toContain('Error: --since es una fecha AAAA-MM-DD, como 2026-11-01 (se recibió «2026-02-31»)');

    const nobody = await cli('integrations:show', 'nadie-aqui');
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain('Error: no existe la integración «nadie-aqui»');
    // --json keeps its shape, with the Spanish message.
    expect((await cli('integrations:show', 'nadie-aqui', '--json')).json()).toEqual({ error: 'no existe la integración «nadie-aqui»' });
  });

  it('takes an amount as the console does: "+10", "-Q 5" and "Q 1,000" (issue 24, defect 10)', async () => {
    const created = await createIntegration('--balance', 'Q 1,000');
    expect(created.balanceCentavos).toBe(100_000);
    const added = await cli('integrations:adjust', created.nombre, '+10', '--note', 'Bonificación');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('ajuste de Q 10.00, saldo Q 1,010.00');
    const taken = await cli('integrations:adjust', created.nombre, '-Q 5', '--note', 'Corrección');
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toContain('ajuste de -Q 5.00, saldo Q 1,005.00');
  });

  it('confirms in Spanish: an integration, its token, its movements', async () => {
    const created = await cli('integrations:create', 'cli-es-texto', '--tariff', '1.50', '--balance', '20', '--enable', 'is_renap_enabled');
    expect(created.code).toBe(0);
    expect(englishIn(created.stdout)).toEqual([]);
    expect(created.stdout).toContain('tarifa Q 1.50  saldo Q 20.00');
    expect(created.stdout).toContain('consultas habilitadas: RENAP por CUI (is_renap_enabled)');
    expect(created.stdout).toContain('IP permitidas: cualquier dirección');
    expect(created.stdout).toContain('Token (se muestra una sola vez; guárdelo ahora):');

    await cliJson('integrations:top-up', 'cli-es-texto', '2.50', '--note', 'Depósito 77');
    const history = await cli('integrations:history', 'cli-es-texto');
    expect(history.code).toBe(0);
    expect(englishIn(history.stdout)).toEqual([]);
    expect(history.stdout).toMatch(/^ {2}\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} +Recarga +Q 2\.50 +saldo +Q 22\.50 +CLI/m);

    const tokens = await cli('integrations:tokens', 'cli-es-texto');
    expect(tokens.stdout).toMatch(/Principal +Activo +creado \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} +último uso nunca +sin vencimiento/);
  });

  it('says the reconciliation\'s verdict in Spanish sentences, never as a JSON log line; exit 1 with the differences', async () => {
    const created = await createIntegration('--balance', '3');
    const clean = await cli('ledger:verify');
    expect(clean.code).toBe(0);
    expect(clean.stdout.trim()).toMatch(/^Libro mayor verificado: \d+ integraci(ón|ones), [\d,]+ movimientos?, sin diferencias \([\d.]+ s\)\.$/);
    expect(clean.stdout + clean.stderr).not.toMatch(JSON_LOG_LINE);
    expect(clean.stderr).toBe('');

    await testDb().use((handle) => handle.rows(sql`update integrations set balance_centavos = balance_centavos + 1 where id = ${created.id}::integer`));
    const broken = await cli('ledger:verify', '--integration', created.nombre);
    expect(broken.code).toBe(1);
    expect(broken.stdout + broken.stderr).not.toMatch(JSON_LOG_LINE);
    expect(broken.stdout).toMatch(/^Libro mayor verificado: 1 integración, 1 movimiento, 2 diferencias \([\d.]+ s\):$/m);
    expect(broken.stdout).toContain(`  Integración #${created.id} «${created.nombre}»: El saldo no es la suma del libro mayor (saldo 301 ≠ suma del libro mayor 300 (centavos))`);
    // --json: the run itself, differences included, with the same exit code.
    const asJson = await cli('ledger:verify', '--integration', created.nombre, '--json');
    expect(asJson.code).toBe(1);
    expect(asJson.json()).toMatchObject({ ok: false, integrationsChecked: 1, differences: expect.arrayContaining([expect.objectContaining({ kind: 'balance_differs_from_ledger' })]) });
  });

  it('writes the structured log only when CLI_LOG_LEVEL asks for it, on stderr; a wrong CLI_LOG_LEVEL stops it with its name', async () => {
    const location = testDb().env;
    // One integration of its own: the test above leaves one with differences.
    const created = await createIntegration();
    const logged = await runCli(['ledger:verify', '--integration', created.nombre], location, { CLI_LOG_LEVEL: 'info' });
    expect(logged.code).toBe(0);
    expect(logged.stdout).toMatch(/^Libro mayor verificado:/);
    expect(logged.stdout).not.toMatch(JSON_LOG_LINE);
    expect(logged.stderr).toMatch(/^\{.*"component":"reconciliation".*"msg":"ledger verified"/m);

    const wrong = await runCli(['integrations:list'], location, { CLI_LOG_LEVEL: 'verbose' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('CLI_LOG_LEVEL');
    expect(wrong.stderr).toContain('fatal, error, warn, info, debug, trace, silent');
  });
});

/** An instant as the console shows it, without its comma: "24/11/2026 04:02:09", Guatemala (UTC-6 all year). */
function consoleTime(iso: string): string {
  const [day, time] = new Date(Date.parse(iso) - 6 * 3_600_000).toISOString().slice(0, 19).split('T');
  const [year, month, date] = day!.split('-');
  return `${date}/${month}/${year} ${time}`;
}

describe('the CLI speaks the console\'s language (issue 32, point 10)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('shows times as the console does, 24/11/2026 04:02:09 in Guatemala, while --json keeps UTC', async () => {
    const created = await createIntegration('--balance', '5');
    const history = await cliJson<{ rows: Array<{ createdAt: string }> }>('integrations:history', created.nombre);
    const createdAt = history.rows[0]!.createdAt;
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const text = await cli('integrations:history', created.nombre);
    expect(text.stdout).toContain(`  ${consoleTime(createdAt)}  Recarga`);
    expect(text.stdout).not.toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);

    const [token] = await cliJson<Array<{ createdAt: string }>>('integrations:tokens', created.nombre);
    expect((await cli('integrations:tokens', created.nombre)).stdout).toContain(`creado ${consoleTime(token!.createdAt)}`);
  });

  it('names the lookups as the console does, and takes those names in --lookup', async () => {
    const created = await cli('integrations:create', 'cli-es-consultas', '--enable', 'is_cui_nit_enabled,is_renap_enabled');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('consultas habilitadas: RENAP por CUI (is_renap_enabled), Catálogo CUI/NIT (is_cui_nit_enabled)');
    const { id } = await cliJson<{ id: number }>('integrations:show', 'cli-es-consultas');
    await testDb().use((handle) =>
      handle.rows(sql`insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, charged_centavos, tariff_centavos, request_id)
        values (${id}::integer, 'cui_nit', 200, 120, '576937K', 0, 0, 'req_cli_es_cuinit'), (${id}::integer, 'renap', 200, 90, null, 0, 0, 'req_cli_es_renap')`),
    );
    const listed = await cli('records:list', '--integration', 'cli-es-consultas');
    expect(listed.stdout).toMatch(/cli-es-consultas +Catálogo CUI\/NIT +200 .*req_cli_es_cuinit/);
    expect(listed.stdout).toMatch(/cli-es-consultas +RENAP por CUI +200 .*req_cli_es_renap/);
    expect(listed.stdout).not.toMatch(/ (cui_nit|renap) /);

    const byConsoleName = await cliJson<Array<{ requestId: string }>>('records:list', '--integration', 'cli-es-consultas', '--lookup', 'catálogo cui/nit');
    expect(byConsoleName.map((record) => record.requestId)).toEqual(['req_cli_es_cuinit']);
    const unknown = await cli('records:list', '--lookup', 'catalogo');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Error: --lookup admite "RENAP por CUI", "RTU por NIT", "Catálogo CUI/NIT", "Catálogo RTU" o "Catálogo omisos" (también renap, rtu_nits, cui_nit, rtu u omisos); se recibió «catalogo»');
  });

  it('takes --kind as the console names the movements (recarga, ajuste, consulta cobrada, constancia de consulta), in any case', async () => {
    const created = await createIntegration('--balance', '5');
    await cliJson('integrations:adjust', created.nombre, '-1', '--note', 'Corrección');
    for (const [kind, shown] of [['recarga', 'Recarga'], ['AJUSTE', 'Ajuste'], ['Consulta cobrada', null], ['Constancia de consulta', null], ['top_up', 'Recarga']] as const) {
      const listed = await cli('integrations:history', created.nombre, '--kind', kind);
      expect(listed.code, `${kind}: ${listed.stderr}`).toBe(0);
      const movements = listed.stdout.trim().split('\n').slice(1);
      if (shown) expect(movements.map((line) => line.includes(` ${shown} `)), listed.stdout).toEqual([true]);
      else expect(movements, listed.stdout).toEqual(['  (sin movimientos)']);
    }
    const unknown = await cli('integrations:history', created.nombre, '--kind', 'cobro');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Error: --kind admite recarga, ajuste, "consulta cobrada" o "constancia de consulta" (también top_up, adjustment, capture o constancia); se recibió «cobro»');
  });

  it('lists console users with their state and second factor, in the Usuarios page\'s words', async () => {
    const enrolled = await cliJson<{ id: number }>('users:create', 'con-factor@example.com', '--name', 'Con Factor', '--role', 'admin');
    const away = await cliJson<{ id: number }>('users:create', 'de-baja@example.com', '--name', 'De Baja', '--role', 'support');
    await testDb().use(async (handle) => {
      await handle.rows(sql`insert into console_two_factor (user_id, secret_ciphertext, confirmed_at) values (${enrolled.id}::integer, 'v1.sealed', now())`);
      await handle.rows(sql`update console_users set must_change_password = false where id = ${enrolled.id}::integer`);
      await handle.rows(sql`update console_users set active = false where id = ${away.id}::integer`);
    });
    const listed = await cli('users:list');
    expect(listed.code).toBe(0);
    const line = (email: string) => listed.stdout.split('\n').find((candidate) => candidate.includes(email)) ?? '';
    expect(line('con-factor@example.com')).toMatch(/Con Factor +Administrador +Activo +verificación en dos pasos: Activada/);
    expect(line('de-baja@example.com')).toMatch(/De Baja +Soporte +Desactivado +verificación en dos pasos: No activada/);
    expect(line('de-baja@example.com')).toContain('debe cambiar su contraseña al entrar');
    expect(line('con-factor@example.com')).not.toContain('debe cambiar');
  });
});
