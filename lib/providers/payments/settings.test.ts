import { describe, expect, it } from 'vitest';
import { PRODUCTION, rejectedVariables } from '@/tests/support/production-env';
import { RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import { parseEnv } from '@/lib/root/settings';
import { DEVELOPMENT_RECURRENTE_SETTINGS } from './settings';

const RECURRENTE_PRODUCTION = {
  PAYMENTS_PROVIDER: 'recurrente',
  RECURRENTE_API_URL: 'https://app.recurrente.com/api',
  RECURRENTE_PUBLIC_KEY: 'pk_live_publica',
  RECURRENTE_SECRET_KEY: 'sk_live_secreta-del-operador',
  RECURRENTE_WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
};

describe('payment settings', () => {
  it('are on against the simulator under npm run dev, off elsewhere unless PAYMENTS_PROVIDER turns them on', () => {
    expect(parseEnv({ NODE_ENV: 'development' })).toMatchObject({
      PAYMENTS_PROVIDER: 'recurrente',
      RECURRENTE_API_URL: 'http://127.0.0.1:4010/recurrente/api',
      RECURRENTE_SECRET_KEY: RECURRENTE_SIM_DEV_KEYS.secretKey,
      RECURRENTE_WEBHOOK_SECRET: RECURRENTE_SIM_DEV_KEYS.webhookSecret,
    });
    expect(parseEnv({ NODE_ENV: 'development', PAYMENTS_PROVIDER: 'none' }).PAYMENTS_PROVIDER).toBe('none');
    expect(parseEnv({}).PAYMENTS_PROVIDER).toBe('none');
    expect(parseEnv({ NODE_ENV: 'test' }).PAYMENTS_PROVIDER).toBe('none');
    // A built app (NODE_ENV=production), even one named development, and production: off until configured.
    expect(parseEnv({ NODE_ENV: 'production', APP_ENV: 'development' }).PAYMENTS_PROVIDER).toBe('none');
    expect(parseEnv({ ...PRODUCTION, NODE_ENV: 'development' }).PAYMENTS_PROVIDER).toBe('none');
    expect(parseEnv(PRODUCTION).PAYMENTS_PROVIDER).toBe('none');
    expect(parseEnv({ NODE_ENV: 'test', PAYMENTS_PROVIDER: 'recurrente' }).PAYMENTS_PROVIDER).toBe('recurrente');
    expect(rejectedVariables({ PAYMENTS_PROVIDER: 'stripe' })).toEqual(['PAYMENTS_PROVIDER']);
  });

  it("default to the simulator's /recurrente and its test-mode keys outside production", () => {
    expect(parseEnv({ NODE_ENV: 'development', SIMULATOR_PORT: '4999', PAYMENTS_PROVIDER: 'recurrente' })).toMatchObject({
      RECURRENTE_API_URL: 'http://127.0.0.1:4999/recurrente/api',
      RECURRENTE_PUBLIC_KEY: RECURRENTE_SIM_DEV_KEYS.publicKey,
      RECURRENTE_SECRET_KEY: RECURRENTE_SIM_DEV_KEYS.secretKey,
      RECURRENTE_WEBHOOK_SECRET: RECURRENTE_SIM_DEV_KEYS.webhookSecret,
      RECURRENTE_WEBHOOK_TOLERANCE_SECONDS: 300,
      RECURRENTE_PARTIAL_REFUNDS: false,
    });
    expect(DEVELOPMENT_RECURRENTE_SETTINGS.RECURRENTE_SECRET_KEY).toBe(RECURRENTE_SIM_DEV_KEYS.secretKey);
    expect(parseEnv(PRODUCTION).RECURRENTE_SECRET_KEY).toBeUndefined();
  });

  it('refuse to start production with Recurrente on, naming every missing setting', () => {
    expect(rejectedVariables({ ...PRODUCTION, PAYMENTS_PROVIDER: 'recurrente' }).sort()).toEqual(['RECURRENTE_API_URL', 'RECURRENTE_PUBLIC_KEY', 'RECURRENTE_SECRET_KEY', 'RECURRENTE_WEBHOOK_SECRET']);
    for (const name of Object.keys(RECURRENTE_PRODUCTION).filter((key) => key !== 'PAYMENTS_PROVIDER')) {
      expect(rejectedVariables({ ...PRODUCTION, ...RECURRENTE_PRODUCTION, [name]: '' })).toEqual([name]);
    }
    expect(parseEnv({ ...PRODUCTION, ...RECURRENTE_PRODUCTION })).toMatchObject({ PAYMENTS_PROVIDER: 'recurrente', RECURRENTE_API_URL: 'https://app.recurrente.com/api' });
  });

  it('check the URL and the signing secret, and never echo a key', () => {
    expect(rejectedVariables({ ...PRODUCTION, ...RECURRENTE_PRODUCTION, RECURRENTE_API_URL: 'http://app.recurrente.com/api' })).toEqual(['RECURRENTE_API_URL']);
    expect(rejectedVariables({ ...PRODUCTION, ...RECURRENTE_PRODUCTION, RECURRENTE_WEBHOOK_SECRET: 'secreto' })).toEqual(['RECURRENTE_WEBHOOK_SECRET']);
    expect(rejectedVariables({ ...PRODUCTION, ...RECURRENTE_PRODUCTION, RECURRENTE_WEBHOOK_TOLERANCE_SECONDS: '5' })).toEqual(['RECURRENTE_WEBHOOK_TOLERANCE_SECONDS']);
    const wrong = () => parseEnv({ ...PRODUCTION, ...RECURRENTE_PRODUCTION, RECURRENTE_WEBHOOK_SECRET: 'whsec_secreto-que-no-es-base64!' });
    expect(wrong).toThrow(/RECURRENTE_WEBHOOK_SECRET/);
    expect(wrong).not.toThrow(/secreto-que-no-es-base64/);
  });
});

describe('online top-ups’ settings', () => {
  it('default to Q 100.00 to Q 50,000.00 with no fee, and refuse a minimum above the maximum', () => {
    expect(parseEnv({})).toMatchObject({ ONLINE_TOP_UP_MIN_CENTAVOS: 10_000, ONLINE_TOP_UP_MAX_CENTAVOS: 5_000_000, ONLINE_TOP_UP_FEE_BASIS_POINTS: 0, ONLINE_TOP_UP_FEE_FIXED_CENTAVOS: 0, RATE_LIMIT_PAYMENT_WEBHOOKS_PER_MINUTE: 300 });
    expect(rejectedVariables({ ONLINE_TOP_UP_MIN_CENTAVOS: '20000', ONLINE_TOP_UP_MAX_CENTAVOS: '10000' })).toEqual(['ONLINE_TOP_UP_MAX_CENTAVOS']);
    expect(rejectedVariables({ ONLINE_TOP_UP_FEE_BASIS_POINTS: '-1' })).toEqual(['ONLINE_TOP_UP_FEE_BASIS_POINTS']);
  });
});
