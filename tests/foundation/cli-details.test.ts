// Issue 24 ("Integration details"): the operator CLI shows and sets an integration's legal name,
// NIT and contacts, in Spanish, with the console's validation, audited.
import { describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { cliFixture } from './cli-fixture';

const { cli, cliJson, createIntegration, auditRows } = cliFixture('cli-details');

describe('operator CLI: integration details', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('refuses a wrong NIT or phone in Spanish, sets only the details given, normalized, and audits the change', async () => {
    const created = await createIntegration();
    const refused = await cli('integrations:details', created.nombre, '--legal-name', 'Otra, S.A.', '--nit', '576937-5', '--billing-phone', '123');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('El NIT no es válido: revise el número y su dígito verificador (por ejemplo 576937-K).');
    expect(refused.stderr).toContain('El teléfono del contacto de facturación no es válido');

    const set = await cli(
      'integrations:details', created.nombre,
      '--nit', '576937-k', '--technical-name', 'Ana López', '--technical-email', 'ana@norte.gt', '--technical-phone', '5555 1234',
    );
    expect(set.code).toBe(0);
    // Nothing of the refused change was saved.
    expect(set.stdout).toContain('Razón social: no registrada');
    expect(set.stdout).toContain('NIT: 576937-K');
    expect(set.stdout).toContain('Contacto técnico: Ana López · ana@norte.gt · +502 5555-1234');
    expect(set.stdout).toContain('Contacto de facturación: no registrado');
    expect(set.stdout).toContain('Datos guardados.');

    const cleared = await cliJson<Record<string, unknown>>('integrations:details', created.nombre, '--technical-phone', '', '--billing-email', 'pagos@norte.gt');
    expect(cleared).toMatchObject({ legalName: null, nit: '576937K', technicalContactName: 'Ana López', technicalContactPhone: null, billingContactEmail: 'pagos@norte.gt', changed: true });
    const changes = (await auditRows('integration', created.id)).filter((row) => row.action === 'integration.set_details');
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({ before: { technicalContactPhone: '+50255551234', billingContactEmail: null }, after: { technicalContactPhone: null, billingContactEmail: 'pagos@norte.gt' } });

    expect((await cli('integrations:details', 'no-existe', '--nit', '576937-K')).code).toBe(3);
  });
});
