import { describe, expect, it } from 'vitest';
import { bulkJobFinished, type BulkJobFacts } from './bulk-job-finished';
import { tokenExpiring } from './token-expiring';

const integration = { id: 12, nombre: 'coop-ejemplo' };
const context = { serviceName: 'Pasarela', lowBalanceDefaultCentavos: 10_000, portalUrl: 'https://consultas.example/portal' };
const now = new Date('2026-11-24T10:30:00.000Z');

describe('the token-expiry notice', () => {
  const token = { id: 42, label: 'Producción', tokenPrefix: 'tlk_3f9a', expiresAt: new Date('2026-12-01T06:00:00.000Z'), revokedAt: null };

  it('says the integrator rotates it in Credenciales, with the link, instead of asking for one', () => {
    const { mensaje } = tokenExpiring.draft({ integration, token, warning: '7d' }, context, now).payload;
    expect(mensaje).not.toContain('Pida un token nuevo');
    expect(mensaje).toContain('Un propietario o un desarrollador de su integración puede rotarlo en el portal, en Credenciales (https://consultas.example/portal/credenciales)');
  });

  it('names the page when the public address is unknown', () => {
    const { mensaje } = tokenExpiring.draft({ integration, token, warning: '1d' }, { serviceName: 'Pasarela', lowBalanceDefaultCentavos: 0 }, now).payload;
    expect(mensaje).toContain('en Credenciales (/portal/credenciales)');
  });
});

describe('the job-finished notice', () => {
  const job: BulkJobFacts = {
    publicId: 'lote_3f9a0c17e2b48d5a6c01',
    catalog: 'rtu',
    state: 'completado',
    counts: { total: 100, pending: 0, found: 80, notFound: 6, invalid: 10, rejected: 3, failed: 4 },
    chargedCentavos: 12_000,
    finishedAt: now,
  };

  it('counts what the source refused apart from what was set aside, at no cost', () => {
    const { mensaje, datos } = bulkJobFinished.draft({ integration, job }, context, now).payload;
    expect(mensaje).toContain('de 100 identificadores, 80 encontrados, 6 no encontrados, 7 inválidos o repetidos, 3 rechazados por la fuente (sin costo) y 4 con error de la fuente.');
    expect(datos).toMatchObject({ invalidos: 10, rechazados: 3 });
  });

  it('says nothing of refusals when there were none', () => {
    const { mensaje } = bulkJobFinished.draft({ integration, job: { ...job, counts: { ...job.counts, invalid: 7, rejected: 0 } } }, context, now).payload;
    expect(mensaje).toContain('6 no encontrados, 7 inválidos o repetidos y 4 con error de la fuente.');
  });
});
