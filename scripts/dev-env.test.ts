// npm run dev's simulator sends its Recurrente webhooks to the app it starts beside it.
import { describe, expect, it } from 'vitest';
import { simulatorOptionsFromEnv } from '@/simulator/config';
import { RECURRENTE_SIM_DEV_KEYS } from '@/simulator/recurrente';
import { parseEnv } from '@/lib/root/settings';
import { developmentSimulatorEnv } from './dev-env';

describe('npm run dev’s simulator', () => {
  it('sends webhooks to the app’s receiver on PORT, signed with the secret the app verifies', () => {
    const simulator = simulatorOptionsFromEnv(developmentSimulatorEnv({ NODE_ENV: 'development' }));
    expect(simulator.recurrente).toMatchObject({ webhookUrl: 'http://127.0.0.1:3000/api/pagos/recurrente', keys: RECURRENTE_SIM_DEV_KEYS });
    expect(parseEnv({ NODE_ENV: 'development' }).RECURRENTE_WEBHOOK_SECRET).toBe(simulator.recurrente!.keys!.webhookSecret);
    expect(simulatorOptionsFromEnv(developmentSimulatorEnv({ PORT: '3100' })).recurrente!.webhookUrl).toBe('http://127.0.0.1:3100/api/pagos/recurrente');
    // Its identity provider knows the console's development client at the app's addresses, with the secret the app sends.
    expect(simulator.oidc!.clients).toEqual([
      {
        clientId: parseEnv({ NODE_ENV: 'development' }).CONSOLE_OIDC_CLIENT_ID,
        clientSecret: parseEnv({ NODE_ENV: 'development' }).CONSOLE_OIDC_CLIENT_SECRET,
        redirectUris: ['http://localhost:3000/api/auth/callback/oidc', 'http://127.0.0.1:3000/api/auth/callback/oidc'],
        backchannelLogoutUri: 'http://localhost:3000/api/sso/cierre-de-sesion',
      },
    ]);
    // An address set by hand wins.
    expect(developmentSimulatorEnv({ SIMULATOR_RECURRENTE_WEBHOOK_URL: 'http://10.0.0.5:3000/api/pagos/recurrente' }).SIMULATOR_RECURRENTE_WEBHOOK_URL).toBe('http://10.0.0.5:3000/api/pagos/recurrente');
  });
});
