// Issue 24 ("Integration details"): an integration's technical and billing contacts, validated
// field by field in Spanish, stored normalized, and audited before and after. Its razón social and
// NIT are its billing profile's (issue 64): never set here, whatever a form or the CLI sends.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { auditLog } from '@/db/schema';
import { createIntegration } from '@/lib/flows/integration-management/service';
import { createTestIntegration, TEST_ACTOR, type TestIntegration } from '@/tests/conformance/harness';
import { useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { formatNit, formatPhone, integratorIdentityLines } from './details-display';
import { normalizeGuatemalanPhone } from './details-schemas';
import { contactsOf, integrationContacts, parseIntegrationDetails, setIntegrationDetails } from './details-service';

let testDatabase: TestDatabase;
let integration: TestIntegration;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  integration = await createTestIntegration('details');
});

afterAll(async () => {
  await testDatabase?.cleanup();
});

async function auditRows(integrationId: number) {
  return (await db())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'integration'), eq(auditLog.targetId, String(integrationId)), eq(auditLog.action, 'integration.set_details')))
    .orderBy(desc(auditLog.id));
}

describe('validating integration details', () => {
  it('takes no razón social or NIT: those are the billing profile\'s, with SAT\'s name', () => {
    const parsed = parseIntegrationDetails({ legalName: 'Otra, S.A.', nit: '576937-K' } as never);
    expect(parsed).toEqual({ ok: true, value: {} });
    expect([formatNit('576937K'), formatNit('1587564440904')]).toEqual(['576937-K', '1587564440904']);
  });

  it('takes a Guatemalan phone with or without +502, spaces or hyphens, and stores it as +502 and 8 digits', () => {
    for (const typed of ['5555 1234', '5555-1234', '+502 5555-1234', '+50255551234', ' 55551234 ']) {
      expect(normalizeGuatemalanPhone(typed)).toBe('+50255551234');
    }
    for (const wrong of ['555 1234', '555512345', '+1 5555 1234', '1555 1234', '5555.1234', 'teléfono']) {
      expect(normalizeGuatemalanPhone(wrong)).toBeUndefined();
    }
    expect(formatPhone('+50222223333')).toBe('+502 2222-3333');
  });

  it('says what is wrong with each field, in Spanish, and names the contact', () => {
    const parsed = parseIntegrationDetails({
      technicalContactName: 'X',
      technicalContactEmail: 'ana@',
      technicalContactPhone: '1234',
      billingContactName: 'L'.repeat(121),
      billingContactEmail: `${'a'.repeat(250)}@example.com`,
      billingContactPhone: '+502 9999 12',
    });
    expect(parsed.ok ? 'accepted' : parsed.error.fieldErrors).toEqual({
      technicalContactName: 'El nombre del contacto técnico debe tener al menos 2 caracteres.',
      technicalContactEmail: 'El correo del contacto técnico no es válido: escríbalo como nombre@empresa.com.',
      technicalContactPhone: 'El teléfono del contacto técnico no es válido: escriba un número de Guatemala de 8 dígitos, por ejemplo 5555 1234 o +502 2222-3333.',
      billingContactName: 'El nombre del contacto de facturación puede tener como máximo 120 caracteres.',
      billingContactEmail: 'El correo del contacto de facturación puede tener como máximo 254 caracteres.',
      billingContactPhone: 'El teléfono del contacto de facturación no es válido: escriba un número de Guatemala de 8 dígitos, por ejemplo 5555 1234 o +502 2222-3333.',
    });
    const lines = parseIntegrationDetails({ billingContactName: 'Ana\nDos' });
    expect(lines.ok ? 'accepted' : lines.error.fieldErrors.billingContactName).toBe('El nombre del contacto de facturación no puede llevar saltos de línea ni caracteres de control.');
  });
});

describe('changing integration details', () => {
  it('saves them normalized and audits every detail before and after', async () => {
    const saved = await setIntegrationDetails(TEST_ACTOR, integration.nombre, {
      technicalContactName: 'Ana López',
      technicalContactEmail: 'ana@sur.com.gt',
      technicalContactPhone: '5555-1234',
      billingContactName: 'Luis Pérez',
      billingContactEmail: 'facturas@sur.com.gt',
      billingContactPhone: '+502 2222 3333',
    });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value.changed).toBe(true);
    expect(saved.value.integration).toMatchObject({
      legalName: null,
      nit: null,
      technicalContactPhone: '+50255551234',
      billingContactPhone: '+50222223333',
    });
    const [audit] = await auditRows(integration.id);
    expect(audit!.actor).toBe('system:test');
    expect(audit!.before).toEqual({
      technicalContactName: null, technicalContactEmail: null, technicalContactPhone: null,
      billingContactName: null, billingContactEmail: null, billingContactPhone: null,
    });
    expect(audit!.after).toEqual({
      technicalContactName: 'Ana López', technicalContactEmail: 'ana@sur.com.gt', technicalContactPhone: '+50255551234',
      billingContactName: 'Luis Pérez', billingContactEmail: 'facturas@sur.com.gt', billingContactPhone: '+50222223333',
    });
  });

  it('changes only the details given; an empty one clears it; the same values write no audit row', async () => {
    const before = (await auditRows(integration.id)).length;
    const cleared = await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactPhone: '', technicalContactEmail: 'soporte@sur.com.gt' });
    if (!cleared.ok) throw new Error(cleared.error.message);
    expect(cleared.value.integration).toMatchObject({ billingContactPhone: null, technicalContactEmail: 'soporte@sur.com.gt', billingContactName: 'Luis Pérez' });
    const [audit] = await auditRows(integration.id);
    expect(audit!.before).toMatchObject({ billingContactPhone: '+50222223333', technicalContactEmail: 'ana@sur.com.gt' });
    expect(audit!.after).toMatchObject({ billingContactPhone: null, technicalContactEmail: 'soporte@sur.com.gt' });

    const same = await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactName: 'Luis Pérez', billingContactPhone: '' });
    expect(same.ok && same.value.changed).toBe(false);
    expect((await auditRows(integration.id)).length).toBe(before + 1);
  });

  it('saves nothing when one field is wrong, and says which integration does not exist', async () => {
    const refused = await setIntegrationDetails(TEST_ACTOR, integration.id, { billingContactName: 'Nombre Nuevo', billingContactPhone: '123' });
    expect(refused.ok ? 'saved' : refused.error.code).toBe('invalid');
    expect((await integrationContacts(integration.id))?.technical?.email).toBe('soporte@sur.com.gt');
    const stored = await setIntegrationDetails(TEST_ACTOR, integration.id, {});
    expect(stored.ok && stored.value.integration.billingContactName).toBe('Luis Pérez');
    const missing = await setIntegrationDetails(TEST_ACTOR, 'no-existe', { billingContactName: 'Algo' });
    expect(missing.ok ? 'saved' : missing.error).toEqual({ code: 'not_found', message: 'No existe la integración «no-existe».' });
  });

  it('may be given when the integration is created, audited with the creation', async () => {
    const details = parseIntegrationDetails({ billingContactName: 'Norte Pagos', billingContactEmail: 'pagos@norte.gt', technicalContactName: '' });
    if (!details.ok) throw new Error(details.error.message);
    const created = await createIntegration(TEST_ACTOR, { nombre: 'details-at-creation', details: details.value });
    if (!created.ok) throw new Error(created.error.message);
    expect(contactsOf(created.value.integration)).toEqual({ technical: null, billing: { name: 'Norte Pagos', email: 'pagos@norte.gt', phone: null } });
    const [audit] = await (await db())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'integration.create'), eq(auditLog.targetId, String(created.value.integration.id))));
    expect(audit!.after).toMatchObject({ billingContactName: 'Norte Pagos', billingContactEmail: 'pagos@norte.gt', technicalContactName: null });
  });
});

describe('the contacts and the statement lines', () => {
  it('gives each contact, or null when none of its fields is registered', async () => {
    expect(await integrationContacts(integration.id)).toEqual({
      technical: { name: 'Ana López', email: 'soporte@sur.com.gt', phone: '+50255551234' },
      billing: { name: 'Luis Pérez', email: 'facturas@sur.com.gt', phone: null },
    });
    expect(await integrationContacts('no-existe')).toBeUndefined();
  });

  it('names the integrator on a statement, plainly when nothing was registered (or the statement predates details)', () => {
    expect(integratorIdentityLines({ legalName: 'Banco, S.A.', nit: '576937K' })).toEqual(['Razón social: Banco, S.A.', 'NIT: 576937-K']);
    expect(integratorIdentityLines({ legalName: 'Banco, S.A.', nit: '576937K', address: '6a. Avenida 1-23, zona 1, Guatemala' })).toEqual([
      'Razón social: Banco, S.A.',
      'NIT: 576937-K',
      'Dirección fiscal: 6a. Avenida 1-23, zona 1, Guatemala',
    ]);
    expect(integratorIdentityLines({ legalName: null, nit: null })).toEqual(['Razón social: no registrada', 'NIT: no registrado']);
    expect(integratorIdentityLines({})).toEqual(['Razón social: no registrada', 'NIT: no registrado']);
  });
});
