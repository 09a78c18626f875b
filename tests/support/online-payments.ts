// The settings the online payment flows' tests run with, against the simulator's certifier.
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
