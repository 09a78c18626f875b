// Issue 24 ("Integration details"): the operator CLI shows an integration's razón social, NIT and
// contacts and sets its contacts, in Spanish, with the console's validation, audited. The razón
// social and NIT are the billing profile's (issue 64): the CLI says where they are set.
import { describe, expect, it } from 'vitest';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';
import { cliFixture } from './cli-fixture';

const { cli, cliJson, createIntegration, auditRows } = cliFixture('cli-details');

describe('operator CLI: integration details', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('refuses a wrong NIT or phone in Spanish, sets only the details given, normalized, and audits the change', async () => {
    const created = await createIntegration();
    const refused = await cli('integrations:details', created.nombre, '--technical-name', 'Ana López', '--billing-phone', '123');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('El teléfono del contacto de facturación no es válido');
    const profile = await cli('integrations:details', created.nombre, '--legal-name', 'Otra, S.A.', '--nit', '576937-K');
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('la razón social y el NIT son los de los datos de facturación (el nombre lo da SAT al consultar el NIT)');

    const set = await cli(
      'integrations:details', created.nombre,
      '--technical-name', 'Ana López', '--technical-email', 'ana@norte.gt', '--technical-phone', '5555 1234',
    );
    expect(set.code).toBe(0);
    // Nothing of the refused change was saved.
    expect(set.stdout).toContain('Razón social: no registrada');
    expect(set.stdout).toContain('NIT: no registrado');
    expect(set.stdout).toContain('Dirección fiscal: no registrada');
    expect(set.stdout).toContain('Contacto técnico: Ana López · ana@norte.gt · +502 5555-1234');
    expect(set.stdout).toContain('Contacto de facturación: no registrado');
    expect(set.stdout).toContain('Datos guardados.');

    const cleared = await cliJson<Record<string, unknown>>('integrations:details', created.nombre, '--technical-phone', '', '--billing-email', 'pagos@norte.gt');
    expect(cleared).toMatchObject({ legalName: null, nit: null, billingAddress: null, invoiceEmail: null, technicalContactName: 'Ana López', technicalContactPhone: null, billingContactEmail: 'pagos@norte.gt', changed: true });
    const changes = (await auditRows('integration', created.id)).filter((row) => row.action === 'integration.set_details');
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({ before: { technicalContactPhone: '+50255551234', billingContactEmail: null }, after: { technicalContactPhone: null, billingContactEmail: 'pagos@norte.gt' } });

    expect((await cli('integrations:details', 'no-existe', '--technical-name', 'Ana López')).code).toBe(3);
  });
});
