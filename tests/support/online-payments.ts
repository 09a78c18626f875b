// The settings the online payment tests run with, against the simulator's Recurrente and certifier.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import type { RunningSimulator } from '@/simulator/server';
import type { PortalClient } from './portal-client';
import { resetEnvCache } from './test-database';

/** FEL against the simulator; online top-ups of Q 50.00 to Q 10,000.00 with a fee of 4.5 % + Q 2.00. */
export function useOnlinePaymentSettings(simulatorUrl: string): void {
  Object.assign(process.env, {
    FEL_ENABLED: 'true',
    FEL_CERTIFIER_BASE_URL: `${simulatorUrl}/fel`,
    FEL_NIT_LOOKUP_BASE_URL: `${simulatorUrl}/fel/receptores`,
    ONLINE_TOP_UP_MIN_CENTAVOS: '5000',
    ONLINE_TOP_UP_MAX_CENTAVOS: '1000000',
    ONLINE_TOP_UP_FEE_BASIS_POINTS: '450',
    ONLINE_TOP_UP_FEE_FIXED_CENTAVOS: '200',
  });
  resetEnvCache();
}

/** An app's settings for online payments through the simulator's Recurrente, with its development keys. */
export function recurrenteSimulatorSettings(simulatorUrl: string): Record<string, string> {
  return {
    PAYMENTS_PROVIDER: 'recurrente',
    RECURRENTE_API_URL: `${simulatorUrl}/recurrente/api`,
    RECURRENTE_PUBLIC_KEY: RECURRENTE_SIM_DEV_KEYS.publicKey,
    RECURRENTE_SECRET_KEY: RECURRENTE_SIM_DEV_KEYS.secretKey,
    RECURRENTE_WEBHOOK_SECRET: RECURRENTE_SIM_DEV_KEYS.webhookSecret,
  };
}

/** Pays on the simulator's hosted checkout page as a browser does: its form posted with an approved card, the redirect not followed. */
export async function payByCard(checkoutUrl: string): Promise<Response> {
  const paid = await fetch(checkoutUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'resultado=card_approved', redirect: 'manual' });
  expect(paid.status).toBe(303);
  return paid;
}

/** A portal user's online top-up of `monto` quetzales, paid by card at the simulator and its webhooks sent. */
export async function cardTopUpPaid(portal: PortalClient, simulator: RunningSimulator, monto: string): Promise<void> {
  const answer = await portal.serverAction('/portal/recargas', 'startOnlineTopUpAction', { monto, envio: randomUUID() });
  const checkoutUrl = new RegExp(`${simulator.url}/recurrente/checkout-session/[A-Za-z0-9_]+`).exec(answer.text)?.[0];
  expect(checkoutUrl, answer.text.slice(0, 500)).toBeDefined();
  await payByCard(checkoutUrl!);
  await simulator.recurrente.flushWebhooks();
}
