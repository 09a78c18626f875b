// The settings the online payment tests run with, against the simulator's Recurrente and certifier.
import { RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
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
