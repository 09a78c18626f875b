// The operator CLI beyond integrations: console users (password printed once), query records,
// and the exit codes and messages of failed commands.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { guessablePasswordMessage } from '@/lib/flows/passwords/policy';
import { recordUnbilledQuery } from '@/lib/core/records/write';
import { untracedAnswersText } from '@/lib/presentation/untraced-answers';
import { verifyPassword } from '@/lib/platform/security/passwords';
import { runCli } from '../support/cli';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { cliFixture } from './cli-fixture';

const { testDb, cli, cliWithInput, cliJson, createIntegration, auditRows } = cliFixture('cli-other');

describe('operator CLI: users, records and errors', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('creates a console user and prints a generated password once', async () => {
    const created = await cliJson<{ id: number; email: string; role: string; password?: string }>(
      'users:create',
      'Ana.Perez@Example.com',
      '--name',
      'Ana Pérez',
      '--role',
      'support',
    );
    expect(created).toMatchObject({ email: 'ana.perez@example.com', role: 'support' });
    expect(created.password).toMatch(/^[A-Za-z0-9]{18}$/);
    expect(created).not.toHaveProperty('passwordHash');
    const [stored] = await testDb().use((handle) =>
      handle.rows<{ password_hash: string }>(sql`select password_hash from console_users where id = ${created.id}`),
    );
    expect(await verifyPassword(created.password!, stored!.password_hash)).toBe(true);

    const listed = await cli('users:list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('ana.perez@example.com');
    expect(listed.stdout).not.toContain(created.password);
    expect(listed.stdout).not.toMatch(/passwordHash|scrypt\$/);

    const audit = await auditRows('console_user', created.id);
    expect(audit.map((row) => row.action)).toEqual(['user.create']);
    expect(JSON.stringify(audit)).not.toContain(created.password);

    const again = await cli('users:create', 'ana.perez@example.com', '--name', 'Ana', '--role', 'admin');
    expect(again.code).not.toBe(0);
    const badRole = await cli('users:create', 'luis@example.com', '--name', 'Luis', '--role', 'owner');
    expect(badRole.code).not.toBe(0);
  });

  it('removes a user\'s second factor (a lost phone), audited, and says when the user has none', async () => {
    const created = await cliJson<{ id: number }>('users:create', 'sin-telefono@example.com', '--name', 'Sin teléfono', '--role', 'admin');
    await testDb().use((handle) =>
      handle.rows(sql`insert into console_two_factor (user_id, secret_ciphertext, confirmed_at) values (${created.id}, 'v1.sealed', now())`),
    );
    const reset = await cliJson<{ userId: number; sessionsEnded: number }>('users:reset-two-factor', 'Sin-Telefono@example.com');
    expect(reset).toEqual({ userId: created.id, sessionsEnded: 0 });
    const [left] = await testDb().use((handle) => handle.rows<{ count: number }>(sql`select count(*)::int as count from console_two_factor where user_id = ${created.id}`));
    expect(Number(left!.count)).toBe(0);
    expect((await auditRows('console_user', created.id)).map((row) => row.action)).toEqual(['user.create', 'user.reset_two_factor']);
    const again = await cli('users:reset-two-factor', 'sin-telefono@example.com');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('no tiene la verificación en dos pasos activada');
  });

  it('lists query records newest first, filtered by integration and lookup', async () => {
    const created = await createIntegration();
    expect(await cliJson<unknown[]>('records:list', '--integration', created.nombre)).toEqual([]);
    await testDb().use((handle) =>
      handle.rows(sql`insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, charged_centavos, tariff_centavos, request_id, created_at)
        values (${created.id}, 'cui_nit', 200, 120, '576937K', 150, 150, 'req_cli_1', now() - interval '1 minute'),
               (${created.id}, 'omisos', 404, 80, '1234567', 0, 150, 'req_cli_2', now())`),
    );
    const records = await cliJson<Array<{ requestId: string; integrationNombre: string; nit: string; httpStatus: number }>>(
      'records:list',
      '--integration',
      created.nombre,
    );
    expect(records.map((record) => record.requestId)).toEqual(['req_cli_2', 'req_cli_1']);
    // Masked unless a reason is given (issue 30, point 5).
    expect(records[1]).toMatchObject({ integrationNombre: created.nombre, nit: '5769••-K', httpStatus: 200 });
    const omisos = await cliJson<Array<{ requestId: string }>>('records:list', '--integration', created.nombre, '--lookup', 'omisos');
    expect(omisos.map((record) => record.requestId)).toEqual(['req_cli_2']);

    expect((await cli('records:list', '--lookup', 'everything')).code).not.toBe(0);
    expect((await cli('records:list', '--limit', '0')).code).not.toBe(0);
  });

  it('shows NIT and CUI in full, or searches by one, only with a reason, and logs it as the console logs a full export (issue 30, point 5)', async () => {
    const created = await createIntegration();
    // Written as the app writes it, with its search keys.
    await testDb().use(() =>
      recordUnbilledQuery({ integrationId: created.id, lookup: 'cui_nit', httpStatus: 404, responseTimeMs: 120, nit: '576937K', cui: null, errorMessage: null, requestId: 'req_cli_reason_1' }),
    );
    const refused = await cli('records:list', '--identifier', '576937-K');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--identifier busca los datos de una persona: agregue --motivo "ticket o razón"');
    expect(refused.stdout).not.toContain('576937');
    const tooShort = await cli('records:list', '--identifier', '576937-K', '--motivo', ' x ');
    expect(tooShort.code).not.toBe(0);
    expect(tooShort.stderr).toContain('--motivo: Escriba el motivo o el número de ticket (al menos 3 caracteres).');

    const shown = await cli('records:list', '--identifier', '576937-K', '--motivo', 'Ticket 4821');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('nit=576937K');
    const entries = await testDb().use((handle) =>
      handle.rows<{ user_id: number | null; actor: string; kind: string; reason: string; details: { via: string; filters: { identificador: string }; rows: number } }>(
        sql`select user_id, actor, kind, reason, details from personal_data_access order by id`,
      ),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ user_id: null, kind: 'export', reason: 'Ticket 4821', details: { via: 'cli', filters: { identificador: '5769••-K' }, rows: 1 } });
    expect(entries[0]!.actor).toMatch(/^cli/);
    expect(JSON.stringify(entries)).not.toContain('576937');
  });

  it('filters query records by request id, saying what a request id with no record may be', async () => {
    const created = await createIntegration();
    await testDb().use((handle) =>
      handle.rows(sql`insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, charged_centavos, tariff_centavos, request_id)
        values (${created.id}, 'cui_nit', 200, 120, '576937K', 150, 150, 'req_5f0c3a9d2b7e41c8a6f1'),
               (${created.id}, 'omisos', 404, 80, '1234567', 0, 150, 'req_99990000aaaabbbbcccc')`),
    );
    // Spaces around and capitals, as pasted from an e-mail.
    const found = await cliJson<Array<{ requestId: string; httpStatus: number }>>('records:list', '--request-id', ' REQ_5F0C3A9D2B7E41C8A6F1 ');
    expect(found).toEqual([expect.objectContaining({ requestId: 'req_5f0c3a9d2b7e41c8a6f1', httpStatus: 200 })]);
    const text = await cli('records:list', '--request-id', 'req_99990000aaaabbbbcccc', '--integration', created.nombre);
    expect(text.code).toBe(0);
    expect(text.stdout.trim().split('\n')).toHaveLength(1);
    expect(text.stdout).toContain('req_99990000aaaabbbbcccc');
    // Another integration's filter leaves nothing; an unknown id says why there is no record.
    const other = await createIntegration();
    expect(await cliJson<unknown[]>('records:list', '--request-id', 'req_99990000aaaabbbbcccc', '--integration', other.nombre)).toEqual([]);
    const missing = await cli('records:list', '--request-id', 'req_0123456789abcdef0123');
    expect(missing.code).toBe(0);
    expect(missing.stdout).toContain(
      'Ninguna consulta ni rechazo tiene el id de solicitud req_0123456789abcdef0123: no se envió a este servicio, es de hace más de 7 días o de hace unos segundos (vuelva a buscarla), o llegó con más de 300 por minuto a una instancia y quedó sin detalle. No se cobró',
    );
    // As the console's search says it: the answers that carry an id and leave no trace.
    expect(missing.stdout).toContain(`No se cobró: todo cobro tiene su consulta registrada. ${untracedAnswersText(30_000)}`);
    // A refused request's id reads as the console's search says it (its trace, issue 32, point 1).
    await testDb().use((handle) =>
      handle.rows(sql`insert into request_traces (request_id, at, integration_id, lookup, http_status, reason)
        values ('req_0123456789refused402', '2026-11-24T10:02:09Z', ${other.id}, 'omisos', 402, 'balance_exhausted')`),
    );
    const refused = await cli('records:list', '--request-id', 'req_0123456789refused402');
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain(`req_0123456789refused402: ${other.nombre}, /api/catalogos/omisos, 402 sin saldo, 24/11/2026`);
    expect(refused.stdout).toContain('04:02:09, sin cobro.');
    // So does an answer the service could not serve, with what the integrator should do.
    await testDb().use((handle) =>
      handle.rows(sql`insert into request_traces (request_id, at, integration_id, lookup, http_status, cause)
        values ('req_0123456789shed502', '2026-11-24T10:02:09Z', ${other.id}, 'cui_nit', 502, 'shed')`),
    );
    const shed = await cli('records:list', '--request-id', 'req_0123456789shed502');
    expect(shed.code).toBe(0);
    expect(shed.stdout).toContain(`req_0123456789shed502: ${other.nombre}, /api/catalogos/cui-nit, 502 servicio saturado, 24/11/2026`);
    expect(shed.stdout).toContain('04:02:09, sin cobro: reintente en unos segundos.');
    const invalid = await cli('records:list', '--request-id', '576937-K');
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('--request-id');
    expect((await cli('--help')).stdout).toContain('--request-id req_');
  });

  it('exits non-zero, saying why, on errors', async () => {
    const unknownCommand = await cli('integrations:explode');
    expect(unknownCommand.code).not.toBe(0);
    expect(unknownCommand.stderr).toContain('no existe el comando');

    const missing = await cli('integrations:show', 'nobody-here', '--json');
    expect(missing.code).not.toBe(0);
    expect(missing.json<{ error: string }>().error).toContain('nobody-here');

    const existing = await createIntegration();
    const duplicate = await cli('integrations:create', existing.nombre.toUpperCase());
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain('Ya existe');

    const badName = await cli('integrations:create', 'has spaces');
    expect(badName.code).not.toBe(0);

    const noCommand = await cli();
    expect(noCommand.code).not.toBe(0);
    expect(noCommand.stdout).toContain('integrations:create');
  });
});

describe('operator CLI: secrets and untrusted text', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('takes a chosen password from standard input, never from the command line', async () => {
    const onCommandLine = await cli('users:create', 'argv@example.com', '--name', 'Argv', '--role', 'support', '--password', 'una-clave-en-argv');
    expect(onCommandLine.code).toBe(2);
    expect(onCommandLine.stderr).toContain('--password-stdin');
    expect(await cliJson<Array<{ email: string }>>('users:list')).not.toContainEqual(expect.objectContaining({ email: 'argv@example.com' }));

    const piped = await cliWithInput('una clave elegida y larga\n', 'users:create', 'stdin@example.com', '--name', 'Stdin', '--role', 'support', '--password-stdin', '--json');
    expect(piped.code).toBe(0);
    const created = piped.json<{ id: number; password?: string }>();
    expect(created.password).toBeUndefined();
    expect(piped.stdout + piped.stderr).not.toContain('una clave elegida');
    const [stored] = await testDb().use((handle) =>
      handle.rows<{ password_hash: string }>(sql`select password_hash from console_users where id = ${created.id}`),
    );
    expect(await verifyPassword('una clave elegida y larga', stored!.password_hash)).toBe(true);
  });

  it("refuses a chosen password made of the service's words, the operator's name or a date plus digits and symbols, saying why", async () => {
    const create = (password: string, email: string) =>
      runCli(['users:create', email, '--name', 'Pedro Ruiz', '--role', 'support', '--password-stdin'], testDb().env, { ISSUER_LEGAL_NAME: 'Servicios Tributarios Quetzaltenango, S.A.' }, `${password}\n`);
    for (const [password, reason] of [
      ['Pasarela2026!', 'serviceWords'],
      ['MiClave2026..', 'serviceWords'],
      ['NIT576937K!!', 'serviceWords'],
      ['Quetzaltenango2026!', 'serviceWords'],
      ['Diciembre2026', 'dateWords'],
    ] as const) {
      const refused = await create(password, 'servicio@example.com');
      expect(refused.code, password).toBe(2);
      expect(refused.stderr, password).toContain(guessablePasswordMessage(reason));
    }
    expect(await cliJson<Array<{ email: string }>>('users:list')).not.toContainEqual(expect.objectContaining({ email: 'servicio@example.com' }));
    expect((await create('caballo correcto batería grapa', 'frase@example.com')).code).toBe(0);
  });

  it('prints control characters integrators sent as visible escapes, in text and JSON', async () => {
    const created = await createIntegration();
    const hostileNit = '\u001b]0;pwned\u0007\u001b[2J123\u009b31m';
    const hostileCui = '\u202eevil\r\nfake line';
    await testDb().use((handle) =>
      handle.rows(sql`insert into query_records (integration_id, lookup, http_status, response_time_ms, nit, cui, charged_centavos, tariff_centavos, request_id)
        values (${created.id}::integer, 'cui_nit', 404, 12, ${hostileNit}::text, ${hostileCui}::text, 0, 0, 'req_cli_hostile')`),
    );
    // In full (with a reason): what was stored is printed, escaped.
    const text = await cli('records:list', '--integration', created.nombre, '--motivo', 'Ticket 77');
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(text.stdout.trim().split('\n')).toHaveLength(1);
    expect(text.stdout).toContain('nit=\\x1b]0;pwned\\x07\\x1b[2J123\\x9b31m');
    expect(text.stdout).toContain('cui=\\u202eevil\\x0d\\x0afake line');

    const json = await cli('records:list', '--integration', created.nombre, '--json', '--motivo', 'Ticket 77');
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(json.json<Array<{ nit: string; cui: string }>>()[0]).toMatchObject({ nit: hostileNit, cui: hostileCui });
  });
});
