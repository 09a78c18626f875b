// The operator CLI managing integrations: credentials printed once and never listed, flags,
// tariff and balance changes in quetzales, and an audit row for every change.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashToken } from '@/lib/platform/security/tokens';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { cliFixture, type IntegrationJson } from './cli-fixture';

const { testDb, cli, cliJson, createIntegration, auditRows, storedTokenHash } = cliFixture('cli-test');

describe('operator CLI: integrations', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('creates an integration and prints its token once; only the hash is stored', async () => {
    const created = await createIntegration('--tariff', '1.50', '--balance', '10', '--enable', 'is_renap_enabled,is_omisos_enabled');
    expect(created.token).toMatch(/^tlk_[A-Za-z0-9_-]{43}$/);
    expect(created.tokenPrefix).toBe(created.token!.slice(0, 10));
    expect(created).toMatchObject({
      tariffCentavos: 150,
      balanceCentavos: 1000,
      isRenapEnabled: true,
      isOmisosEnabled: true,
      isRtuEnabled: false,
      isCuiNitEnabled: false,
      isRtuV2Enabled: false,
    });
    expect(created).not.toHaveProperty('tokenHash');
    expect(await storedTokenHash(created.id)).toBe(hashToken(created.token!));

    const everything = await testDb().use((handle) =>
      handle.rows<{ dump: string }>(sql`select (select json_agg(i)::text from integrations i) || (select json_agg(a)::text from audit_log a) as dump`),
    );
    expect(everything[0]!.dump).not.toContain(created.token);
  });

  it('prints the token in its plain-text output too, saying it is shown once', async () => {
    const result = await cli('integrations:create', 'cli-text-output');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Token (se muestra una sola vez; guárdelo ahora):');
    expect(result.stdout).toMatch(/tlk_[A-Za-z0-9_-]{43}/);
  });

  it('never lists a token or a token hash', async () => {
    const created = await createIntegration();
    const listed = await cli('integrations:list', '--json');
    expect(listed.code).toBe(0);
    const integrations = listed.json<IntegrationJson[]>();
    expect(integrations.map((integration) => integration.nombre)).toContain(created.nombre);
    expect(listed.stdout).not.toContain(created.token);
    expect(listed.stdout).not.toContain(hashToken(created.token!));
    expect(listed.stdout).not.toMatch(/tokenHash|token_hash|"token"/);
    expect(listed.stdout).not.toMatch(/tlk_[A-Za-z0-9_-]{43}/);
  });

  it('sets flags by their contract names, and refuses an unknown flag', async () => {
    const created = await createIntegration('--enable', 'is_renap_enabled');
    const updated = await cliJson<IntegrationJson>(
      'integrations:flags',
      created.nombre,
      '--enable',
      'is_rtu_enabled,is_cui_nit_enabled',
      '--disable',
      'is_renap_enabled',
    );
    expect(updated).toMatchObject({ isRenapEnabled: false, isRtuEnabled: true, isCuiNitEnabled: true, isRtuV2Enabled: false, isOmisosEnabled: false });

    const refused = await cli('integrations:flags', created.nombre, '--enable', 'is_everything_enabled');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('is_everything_enabled');
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'integration.set_flags']);
    expect(audit[1]).toMatchObject({ before: { isRenapEnabled: true, isRtuEnabled: false }, after: { isRenapEnabled: false, isRtuEnabled: true } });
  });

  it('sets the tariff in quetzales, stored as centavos, and refuses a malformed amount', async () => {
    const created = await createIntegration('--tariff', '1.50');
    const updated = await cliJson<IntegrationJson>('integrations:tariff', created.nombre, '2.75');
    expect(updated.tariffCentavos).toBe(275);

    const refused = await cli('integrations:tariff', created.nombre, '2.755');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('2.755');
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'integration.set_tariff']);
    expect(audit[1]).toMatchObject({ before: { tariffCentavos: 150 }, after: { tariffCentavos: 275 } });
  });

  it('turns constancias on with their tariff in quetzales, their retention and a legal hold, audited, and refuses a negative tariff (issue 68)', async () => {
    const created = await createIntegration();
    const shown = await cli('integrations:constancias', created.nombre, 'si', '--tarifa', '0.50');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Constancias: sí, a Q 0.50 cada una; pruebas guardadas 5 años.');
    const updated = await cliJson<IntegrationJson & { constanciaTariffCentavos: number; constanciaRetentionYears: number; constanciasLegalHold: boolean }>(
      'integrations:constancias',
      created.nombre,
      '--tarifa',
      '1',
      '--retencion',
      '7',
      '--retencion-legal',
      'si',
    );
    expect(updated).toMatchObject({ constanciaTariffCentavos: 100, constanciaRetentionYears: 7, constanciasLegalHold: true });

    const refused = await cli('integrations:constancias', created.nombre, '--tarifa', '-1');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('La tarifa no puede ser negativa.');
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual([
      'integration.create',
      'integration.set_constancias',
      'integration.set_constancia_tariff',
      'integration.set_constancia_tariff',
      'integration.set_constancia_retention',
      'integration.set_constancias_legal_hold',
    ]);
    expect(audit[3]).toMatchObject({ before: { constanciaTariffCentavos: 50 }, after: { constanciaTariffCentavos: 100 } });
  });

  it('runs the constancias log\'s sequencer by hand and says where the check of its stored leaves stands', async () => {
    const run = await cli('constancias:registro');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Revisión de las hojas guardadas: la próxima empieza en la hoja 0;');
    const data = await cliJson<{ kind: string; audit: { nextLeaf: number } }>('constancias:registro');
    expect(data).toMatchObject({ audit: { nextLeaf: 0 } });
  });

  it('tops up with a note that lands in the ledger, and requires the note', async () => {
    const created = await createIntegration();
    const topped = await cliJson<{ balanceCentavos: number }>('integrations:top-up', created.nombre, '25.00', '--note', 'Transferencia 8841');
    expect(topped.balanceCentavos).toBe(2500);
    const shown = await cliJson<IntegrationJson>('integrations:show', created.nombre);
    expect(shown.balanceCentavos).toBe(2500);
    expect(shown.ledger![0]).toMatchObject({ kind: 'top_up', amountCentavos: 2500, note: 'Transferencia 8841' });
    expect(shown.ledger![0]!.actor).toMatch(/^cli/);

    const withoutNote = await cli('integrations:top-up', created.nombre, '5');
    expect(withoutNote.code).not.toBe(0);
    // It names the option to add, not the console's field (issue 32, point 10).
    expect(withoutNote.stderr).toContain('falta la nota de la recarga: agregue --note');
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'balance.top_up']);
    expect(audit[1]).toMatchObject({ before: { balanceCentavos: 0 }, after: { balanceCentavos: 2500, note: 'Transferencia 8841' } });
  });

  it('adjusts a balance down with a negative amount, and refuses to take it below zero', async () => {
    const created = await createIntegration('--balance', '30');
    const adjusted = await cliJson<{ balanceCentavos: number }>('integrations:adjust', created.nombre, '-5.00', '--note', 'Cobro duplicado');
    expect(adjusted.balanceCentavos).toBe(2500);

    const refused = await cli('integrations:adjust', created.nombre, '-25.01', '--note', 'Demasiado', '--json');
    expect(refused.code).not.toBe(0);
    expect(refused.json<{ error: string }>().error).toMatch(/debajo de cero/);
    const shown = await cliJson<IntegrationJson>('integrations:show', created.nombre);
    expect(shown.balanceCentavos).toBe(2500);
    expect(shown.ledger!.map((entry) => [entry.kind, entry.amountCentavos])).toEqual([
      ['adjustment', -500],
      ['top_up', 3000],
    ]);

    // Down to exactly zero is allowed.
    expect((await cliJson<{ balanceCentavos: number }>('integrations:adjust', created.nombre, '-25', '--note', 'Cierre')).balanceCentavos).toBe(0);
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'balance.adjust', 'balance.adjust']);
  });

  it('rotates the token: a new one is printed once and only its hash is stored', async () => {
    const created = await createIntegration();
    const rotated = await cliJson<IntegrationJson>('integrations:rotate-token', created.nombre);
    expect(rotated.token).toMatch(/^tlk_[A-Za-z0-9_-]{43}$/);
    expect(rotated.token).not.toBe(created.token);
    expect(rotated.tokenPrefix).toBe(rotated.token!.slice(0, 10));
    expect(await storedTokenHash(created.id)).toBe(hashToken(rotated.token!));

    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'integration.rotate_token']);
    expect(JSON.stringify(audit)).not.toContain(rotated.token);
    expect(JSON.stringify(audit)).not.toContain(hashToken(rotated.token!));
  });

  it('manages several tokens: a named one printed once, rotation with an overlap window, revocation, all listed without secrets (issue 22)', async () => {
    const created = await createIntegration();
    const second = await cliJson<{ id: number; label: string; token: string; state: string }>('integrations:token-create', created.nombre, '--label', 'Servidor nuevo');
    expect(second).toMatchObject({ label: 'Servidor nuevo', state: 'active', token: expect.stringMatching(/^tlk_[A-Za-z0-9_-]{43}$/) });

    const before = Date.now();
    const rotated = await cliJson<IntegrationJson & { replaced: { id: number; state: string; expiresAt: string } }>(
      'integrations:rotate-token',
      created.nombre,
      '--token',
      String(second.id),
      '--overlap',
      '7d',
    );
    expect(rotated.replaced).toMatchObject({ id: second.id, state: 'ending' });
    const sevenDays = 7 * 24 * 3_600_000;
    expect(Date.parse(rotated.replaced.expiresAt)).toBeGreaterThanOrEqual(before + sevenDays);
    expect(Date.parse(rotated.replaced.expiresAt)).toBeLessThanOrEqual(Date.now() + sevenDays);

    const unknownOverlap = await cli('integrations:rotate-token', created.nombre, '--overlap', '2h');
    expect(unknownOverlap.code).toBe(2);
    expect(unknownOverlap.stderr).toContain('--overlap admite none, 1h, 24h, 7d');

    const revoked = await cliJson<{ id: number; state: string }>('integrations:token-revoke', created.nombre, String(second.id));
    expect(revoked).toMatchObject({ id: second.id, state: 'revoked' });

    const listed = await cli('integrations:tokens', created.nombre);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/Servidor nuevo +Revocado/);
    expect(listed.stdout).toMatch(/Servidor nuevo +Activo/);
    expect(listed.stdout).toMatch(/Principal +Activo/);
    for (const token of [created.token!, second.token, rotated.token!]) {
      expect(listed.stdout).not.toContain(token);
      expect(listed.stdout).not.toContain(hashToken(token));
    }
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'token.create', 'integration.rotate_token', 'token.revoke']);
  });

  it('sets an IP allow-list with validation, audited, and removes it with --anywhere (issue 22, point 2)', async () => {
    const created = await createIntegration();
    const refused = await cli('integrations:allowed-ips', created.nombre, '--set', '203.0.113.0/24, 198.51.100.7/24, nada');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('«198.51.100.7/24» tiene bits fuera del prefijo /24: el rango es 198.51.100.0/24.');
    expect(refused.stderr).toContain('«nada» no es una dirección IPv4 ni IPv6.');

    const saved = await cliJson<{ allowedNetworks: string[]; refused: unknown[] }>('integrations:allowed-ips', created.nombre, '--set', '203.0.113.0/24, 2001:DB8::/32');
    expect(saved).toEqual({ allowedNetworks: ['203.0.113.0/24', '2001:db8::/32'], refused: [] });
    const shown = await cli('integrations:show', created.nombre);
    expect(shown.stdout).toContain('IP permitidas: 203.0.113.0/24 2001:db8::/32');
    expect((await cliJson<{ allowedNetworks: string[] }>('integrations:allowed-ips', created.nombre, '--anywhere')).allowedNetworks).toEqual([]);
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'integration.set_allowed_networks', 'integration.set_allowed_networks']);
  });

  it('sets the declared purpose of use, validated and audited, and shows it (issue 23, point 5)', async () => {
    const created = await createIntegration();
    const tooShort = await cli('integrations:purpose', created.nombre, '--set', 'KYC');
    expect(tooShort.code).toBe(2);
    expect(tooShort.stderr).toContain('Describe la finalidad en al menos 10 caracteres');
    const purpose = 'Verificar la identidad de clientes al abrir una cuenta.';
    expect((await cliJson<{ purpose: string }>('integrations:purpose', created.nombre, '--set', purpose)).purpose).toBe(purpose);
    expect((await cli('integrations:show', created.nombre)).stdout).toContain(`finalidad: ${purpose}`);
    const audit = await auditRows('integration', created.id);
    expect(audit.map((row) => row.action)).toEqual(['integration.create', 'integration.set_purpose']);
  });
  it('says what records:purge did to the constancias, each batch leaving its proof in the audit (issue 68, point 7)', async () => {
    const created = await createIntegration();
    // Three receipts as the lookups write them (a leaf, then its row): two issued three years ago, one six.
    for (const years of [3, 3, 6]) {
      await testDb().use((handle) =>
        handle.rows(sql`
          with leaf as (
            insert into constancia_log_leaves (leaf_index, leaf_hash)
            select nextval('constancia_leaf_index'), repeat('ab', 32)
            returning leaf_index
          )
          insert into constancias (id, leaf_index, integration_id, request_id, lookup, http_status, key_id, issued_at, receipt_sealed)
          select 'cst_cli_purge_' || leaf_index, leaf_index, ${created.id}::integer, 'req_cli_purge_' || leaf_index, 'renap', 200, 'k1',
                 now() - make_interval(years => ${years}::integer), 'texto sellado'
            from leaf`),
      );
    }

    const run = await cli('records:purge');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'Constancias: 3 textos borrados con los registros y 1 constancia borrada al vencer la conservación de su integración; cada tanda dejó su prueba de borrado en la auditoría.',
    );
    const again = await cliJson<{ constancias: { textsPurged: number; proofsPurged: number } }>('records:purge');
    expect(again.constancias).toEqual({ textsPurged: 0, proofsPurged: 0 });
    expect((await cli('records:purge')).stdout).toContain('Constancias: ninguna pasada su conservación.');
    const audit = await auditRows('integration', created.id);
    expect(audit.filter((row) => row.action.startsWith('constancia.')).map((row) => [row.action, (row.after as { constancias: number }).constancias])).toEqual([
      ['constancia.text_purged', 3],
      ['constancia.proof_purged', 1],
    ]);
  });
});
