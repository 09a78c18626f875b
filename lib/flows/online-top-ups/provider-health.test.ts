// The payment provider as a component (issue 64, point 6), on a real database and against the
// Recurrente simulator: every call the configured provider makes is written down, and its health
// reads up, degraded after one unanswered call, down from three in a row (since the first), and
// refusing the service's keys; the Panel's banner and /estado say so in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { paymentProviderCalls } from '@/db/schema';
import { configuredPaymentProvider, onPaymentProviderCall, usePaymentProvider } from '@/lib/providers/payments/configured';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { paymentsFailingBanner } from '@/lib/presentation/invoice-labels';
import { buildPublicStatus } from '@/lib/reactions/status-page/status';
import { recurrenteSimulatorSettings } from '@/tests/support/online-payments';
import { resetEnvCache, useTestDatabase, type TestDatabase } from '@/tests/support/test-database';
import { startSimulator, type RunningSimulator } from '../../../simulator/server';
import { providerHealth, recordProviderCall } from './provider-health';

let testDatabase: TestDatabase;
let simulator: RunningSimulator;

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  simulator = await startSimulator({ port: 0 });
  Object.assign(process.env, recurrenteSimulatorSettings(simulator.url), { RECURRENTE_TIMEOUT_MS: '2000' });
  resetEnvCache();
  usePaymentProvider(undefined);
  onPaymentProviderCall(recordProviderCall);
});
afterAll(async () => {
  await simulator?.close();
  await testDatabase?.cleanup();
});

/** Waits for the calls' rows, written off the payment's path. */
async function healthAfter(calls: number): Promise<Awaited<ReturnType<typeof providerHealth>>> {
  const ends = Date.now() + 5_000;
  while ((await (await db()).select().from(paymentProviderCalls)).length < calls) {
    if (Date.now() > ends) throw new Error('the calls were not written');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return providerHealth();
}

describe('the payment provider’s health', () => {
  it('is idle before any call, up while it answers, degraded, then down from the third unanswered call in a row, and up again', async () => {
    expect(await providerHealth()).toEqual({ state: 'idle', since: null, lastCallAt: null });
    const provider = configuredPaymentProvider()!;
    expect(await provider.readCheckout('ch_no_existe')).toMatchObject({ kind: 'not_found' });
    expect(await healthAfter(1)).toMatchObject({ state: 'up', since: null });

    simulator.recurrente.setApiFaults([{ fault: 'server_error' }]);
    expect(await provider.readCheckout('ch_no_existe')).toMatchObject({ kind: 'unavailable' });
    const degraded = await healthAfter(2);
    expect(degraded).toMatchObject({ state: 'degraded' });
    await provider.readCheckout('ch_no_existe');
    await provider.readPayment('pa_no_existe');
    const down = await healthAfter(4);
    expect(down).toMatchObject({ state: 'down', since: degraded.since });
    expect(paymentsFailingBanner(down, formatDateTime)).toBe(
      `Pagos en línea con fallas desde ${formatDateTime(down.since!)}: el proveedor no responde. No se pueden iniciar pagos ni reembolsos; los pagos abiertos se leerán de nuevo solos y nada se acredita dos veces.`,
    );
    const status = buildPublicStatus({ now: new Date(), dayCells: [], hourCells: [], transitions: [], payments: down });
    expect(status.componentes).toEqual([
      { componente: 'pagos_en_linea', nombre: 'Pagos en línea', estado: 'sin_servicio', desde: down.since!.toISOString(), texto: expect.stringContaining('Puede recargar con un depósito bancario') },
    ]);

    simulator.recurrente.setApiFaults([]);
    await provider.readCheckout('ch_no_existe');
    expect(await healthAfter(5)).toMatchObject({ state: 'up', since: null });
    expect(paymentsFailingBanner({ state: 'up', since: null }, formatDateTime)).toBeNull();
  });

  it('reads refusing the service’s keys when the provider answers 401', async () => {
    process.env.RECURRENTE_SECRET_KEY = 'sk_test_una_llave_que_no_es';
    resetEnvCache();
    usePaymentProvider(undefined);
    expect(await configuredPaymentProvider()!.readPayment('pa_no_existe')).toMatchObject({ kind: 'unavailable' });
    const refused = await configuredPaymentProvider()!.createCheckout({
      topUpId: 'recarga-salud-0001',
      amountCentavos: 10_000,
      currency: 'GTQ',
      description: 'Recarga de saldo',
      successUrl: 'https://pasarela.example/ok',
      cancelUrl: 'https://pasarela.example/no',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    expect(refused).toMatchObject({ kind: 'credentials_refused' });
    expect(await healthAfter(7)).toMatchObject({ state: 'credentials_refused', since: expect.any(Date) });
  });
});
