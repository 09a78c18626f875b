import { describe, expect, it } from 'vitest';
import { PRODUCTION, rejectedVariables } from '@/tests/support/production-env';
import { EnvError } from '@/lib/platform/settings/fragment';
import { parseEnv } from './settings';
import { DEVELOPMENT_ISSUER, renamedSettingsInUse } from '@/lib/core/issuer/settings';
import { DEVELOPMENT_TOP_UP_BANK_ACCOUNTS } from '@/lib/flows/top-ups/settings';

describe('parseEnv', () => {
  it('needs nothing for embedded development and uses the contract defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      APP_ENV: 'development',
      PGLITE_DIR: '.data/pglite',
      MIGRATE_ON_START: true,
      SEED_ON_START: true,
      RATE_LIMIT_GLOBAL_MAX: 100,
      RATE_LIMIT_GLOBAL_WINDOW_SECONDS: 900,
      RATE_LIMIT_RENAP_PER_MINUTE: 30,
      RATE_LIMIT_RTU_PER_MINUTE: 50,
      RATE_LIMIT_CATALOG_PER_MINUTE: 30,
      SOURCE_TIMEOUT_MS: 30_000,
      TRUSTED_PROXY_HOPS: 0,
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("points the three sources at the simulator's port in development: SIMULATOR_PORT alone moves them (issue 32, point 9)", () => {
    expect(parseEnv({})).toMatchObject({
      RENAP_BASE_URL: 'http://127.0.0.1:4010/renap',
      RTU_BASE_URL: 'http://127.0.0.1:4010/rtu',
      CATALOG_BASE_URL: 'http://127.0.0.1:4010/catalog',
    });
    expect(parseEnv({ SIMULATOR_PORT: '4511' })).toMatchObject({
      SIMULATOR_PORT: 4511,
      RENAP_BASE_URL: 'http://127.0.0.1:4511/renap',
      RTU_BASE_URL: 'http://127.0.0.1:4511/rtu',
      CATALOG_BASE_URL: 'http://127.0.0.1:4511/catalog',
    });
    // One set explicitly keeps its own address.
    expect(parseEnv({ SIMULATOR_PORT: '4511', RTU_BASE_URL: 'http://127.0.0.1:9000/rtu' }).RTU_BASE_URL).toBe('http://127.0.0.1:9000/rtu');
  });

  it('reads numbers and flags from their text form', () => {
    const env = parseEnv({ RATE_LIMIT_GLOBAL_MAX: '250', TRUSTED_PROXY_HOPS: '1', SEED_ON_START: '0', MIGRATE_ON_START: 'false' });
    expect(env).toMatchObject({ RATE_LIMIT_GLOBAL_MAX: 250, TRUSTED_PROXY_HOPS: 1, SEED_ON_START: false, MIGRATE_ON_START: false });
  });

  it('takes deposits reported up to 90 days old unless the operator sets another window of whole days, and refuses one that is not', () => {
    expect(parseEnv({}).TOP_UP_DEPOSIT_MAX_AGE_DAYS).toBe(90);
    expect(parseEnv({ TOP_UP_DEPOSIT_MAX_AGE_DAYS: '30' }).TOP_UP_DEPOSIT_MAX_AGE_DAYS).toBe(30);
    for (const wrong of ['0', '-5', '2.5', 'noventa', '4000']) expect(rejectedVariables({ TOP_UP_DEPOSIT_MAX_AGE_DAYS: wrong }), wrong).toEqual(['TOP_UP_DEPOSIT_MAX_AGE_DAYS']);
  });

  it('treats an empty DATABASE_URL as unset (embedded database)', () => {
    expect(parseEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('requires a second factor of every console user in production unless told otherwise, and not in development', () => {
    expect(parseEnv(PRODUCTION).CONSOLE_TWO_FACTOR_REQUIRED).toBe(true);
    expect(parseEnv({ ...PRODUCTION, CONSOLE_TWO_FACTOR_REQUIRED: 'false' }).CONSOLE_TWO_FACTOR_REQUIRED).toBe(false);
    expect(parseEnv({}).CONSOLE_TWO_FACTOR_REQUIRED).toBe(false);
    expect(parseEnv({ CONSOLE_TWO_FACTOR_REQUIRED: 'true' }).CONSOLE_TWO_FACTOR_REQUIRED).toBe(true);
    expect(() => parseEnv({ ...PRODUCTION, CONSOLE_TWO_FACTOR_REQUIRED: 'no' })).toThrow(/CONSOLE_TWO_FACTOR_REQUIRED/);
    // The setting's earlier name keeps a deployment's choice.
    expect(parseEnv({ ...PRODUCTION, CONSOLE_ADMIN_TWO_FACTOR_REQUIRED: 'false' }).CONSOLE_TWO_FACTOR_REQUIRED).toBe(false);
    expect(parseEnv({ ...PRODUCTION, CONSOLE_ADMIN_TWO_FACTOR_REQUIRED: 'false', CONSOLE_TWO_FACTOR_REQUIRED: 'true' }).CONSOLE_TWO_FACTOR_REQUIRED).toBe(true);
    expect(() => parseEnv({ TWO_FACTOR_ENCRYPTION_KEY: 'too short' })).toThrow(/TWO_FACTOR_ENCRYPTION_KEY/);
  });

  it('refuses local integrator webhook targets in production, naming the setting, and allows them in development', () => {
    expect(() => parseEnv({ ...PRODUCTION, INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' })).toThrow(/INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS/);
    expect(parseEnv({ INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'true' }).INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS).toBe(true);
    expect(parseEnv(PRODUCTION).INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS).toBe(false);
  });

  it('accepts a complete production environment and turns the seed off there', () => {
    expect(parseEnv(PRODUCTION)).toMatchObject({ APP_ENV: 'production', SEED_ON_START: false });
  });

  it("hashes passwords at OWASP's cost unless told otherwise, and production refuses the test suites' low cost", () => {
    expect(parseEnv({}).PASSWORD_HASH_COST).toBe('standard');
    expect(parseEnv(PRODUCTION).PASSWORD_HASH_COST).toBe('standard');
    expect(parseEnv({ PASSWORD_HASH_COST: 'low' }).PASSWORD_HASH_COST).toBe('low');
    expect(rejectedVariables({ ...PRODUCTION, PASSWORD_HASH_COST: 'low' })).toEqual(['PASSWORD_HASH_COST']);
  });

  it.each([
    ['APP_ENV', 'staging'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://root@127.0.0.1/gateway'],
    ['RATE_LIMIT_GLOBAL_MAX', 'lots'],
    ['RATE_LIMIT_GLOBAL_MAX', '0'],
    ['RATE_LIMIT_RENAP_PER_MINUTE', '2.5'],
    ['RATE_LIMIT_CATALOG_PER_MINUTE', 'thirty'],
    ['TRUSTED_PROXY_HOPS', '-1'],
    ['SOURCE_TIMEOUT_MS', 'soon'],
    ['SEED_ON_START', 'yes'],
    ['NEXTAUTH_SECRET', 'too-short'],
    ['RENAP_BASE_URL', 'ftp://renap.example'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['HOLD_SWEEP_AFTER_SECONDS', '30'],
    ['INTEGRATION_CACHE_REFRESH_MS', '60000'],
    ['INTEGRATION_CACHE_MAX_AGE_MS', '3000'],
    ['LOOKUP_CONCURRENCY', '129'],
    ['LOOKUP_QUEUE_MAX', '-1'],
    ['RATE_LIMIT_IPV6_PREFIX_LENGTH', '129'],
    ['LOG_LEVEL', 'verbose'],
    ['PASSWORD_HASH_COST', 'cheap'],
  ])('names %s when it is %j', (name, value) => {
    expect(rejectedVariables({ [name]: value })).toEqual([name]);
  });

  it('names every wrong variable at once, in the error message too', () => {
    const problems = rejectedVariables({ APP_ENV: 'qa', DATABASE_URL: 'nope', RATE_LIMIT_RTU_PER_MINUTE: 'x' });
    expect(problems.sort()).toEqual(['APP_ENV', 'DATABASE_URL', 'RATE_LIMIT_RTU_PER_MINUTE']);
    expect(() => parseEnv({ APP_ENV: 'qa', DATABASE_URL: 'nope' })).toThrow(/APP_ENV[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*APP_ENV/);
  });

  it('lists every missing secret when production is started without them', () => {
    expect(rejectedVariables({ APP_ENV: 'production' }).sort()).toEqual(
      [
        'CATALOG_CLIENT_ID',
        'CATALOG_CLIENT_SECRET',
        'CONSTANCIA_SIGNING_KEYS',
        'RECORD_JOURNAL_DIR',
        'SUPPORT_CONTACT_EMAIL',
        'PERSONAL_DATA_KEY',
        'PERSONAL_DATA_SEARCH_KEY',
        'DATABASE_URL',
        'NEXTAUTH_SECRET',
        'NEXTAUTH_URL',
        'RENAP_API_KEY',
        'RTU_API_KEY',
        'RENAP_BASE_URL',
        'RTU_BASE_URL',
        'CATALOG_BASE_URL',
        'ISSUER_LEGAL_NAME',
        'ISSUER_NIT',
        'ISSUER_ADDRESS',
      ].sort(),
    );
  });

  it('takes the personal-data keys only as 32 bytes in base64, two different ones, and previous keys as a list', () => {
    expect(rejectedVariables({ ...PRODUCTION, PERSONAL_DATA_KEY: 'short' })).toEqual(['PERSONAL_DATA_KEY']);
    expect(rejectedVariables({ ...PRODUCTION, PERSONAL_DATA_SEARCH_KEY: Buffer.alloc(31).toString('base64') })).toEqual(['PERSONAL_DATA_SEARCH_KEY']);
    expect(rejectedVariables({ ...PRODUCTION, PERSONAL_DATA_SEARCH_KEY: PRODUCTION.PERSONAL_DATA_KEY })).toEqual(['PERSONAL_DATA_SEARCH_KEY']);
    expect(rejectedVariables({ ...PRODUCTION, PERSONAL_DATA_PREVIOUS_KEYS: `${Buffer.alloc(32, 3).toString('base64')},nope` })).toEqual(['PERSONAL_DATA_PREVIOUS_KEYS']);
    const previous = [Buffer.alloc(32, 3).toString('base64'), Buffer.alloc(32, 4).toString('base64')];
    expect(parseEnv({ ...PRODUCTION, PERSONAL_DATA_PREVIOUS_KEYS: ` ${previous[0]} , ${previous[1]}` }).PERSONAL_DATA_PREVIOUS_KEYS).toEqual(previous);
  });

  it('takes a built app (NODE_ENV=production) without APP_ENV for production: secrets required, never seeded', () => {
    expect(rejectedVariables({ NODE_ENV: 'production' })).toContain('NEXTAUTH_SECRET');
    const withoutAppEnv = { ...PRODUCTION, APP_ENV: undefined };
    expect(parseEnv({ ...withoutAppEnv, NODE_ENV: 'production' })).toMatchObject({ APP_ENV: 'production', SEED_ON_START: false });
    expect(rejectedVariables({ ...withoutAppEnv, NODE_ENV: 'production', SEED_ON_START: 'true' })).toEqual(['SEED_ON_START']);
    // Development stays explicit, and a plain `npm run dev` (no NODE_ENV) needs nothing.
    expect(parseEnv({ NODE_ENV: 'production', APP_ENV: 'development' }).APP_ENV).toBe('development');
    expect(parseEnv({ NODE_ENV: 'development' }).APP_ENV).toBe('development');
  });

  it('in production, refuses plain http for the public URL and every upstream', () => {
    expect(rejectedVariables({ ...PRODUCTION, NEXTAUTH_URL: 'http://gateway.example.gt' })).toEqual(['NEXTAUTH_URL']);
    for (const name of ['RENAP_BASE_URL', 'RTU_BASE_URL', 'CATALOG_BASE_URL']) {
      expect(rejectedVariables({ ...PRODUCTION, [name]: 'http://upstream.example.gt/api' })).toEqual([name]);
    }
    expect(rejectedVariables({ ...PRODUCTION, UPSTASH_REDIS_REST_URL: 'http://redis.example.gt', UPSTASH_REDIS_REST_TOKEN: 't' })).toEqual([
      'UPSTASH_REDIS_REST_URL',
    ]);
  });

  it('lets a TLS sidecar on this host carry the upstream traffic when asked to, and nowhere else', () => {
    const sidecar = { ...PRODUCTION, UPSTREAM_TLS_SIDECAR: 'true' };
    expect(parseEnv({ ...sidecar, RENAP_BASE_URL: 'http://127.0.0.1:8443/renap', RTU_BASE_URL: 'http://localhost:8444/rtu' })).toMatchObject({
      RENAP_BASE_URL: 'http://127.0.0.1:8443/renap',
    });
    expect(rejectedVariables({ ...sidecar, CATALOG_BASE_URL: 'http://catalogos.example.gt/api' })).toEqual(['CATALOG_BASE_URL']);
  });

  it('names just the one production secret that is missing', () => {
    for (const name of Object.keys(PRODUCTION).filter((key) => key !== 'APP_ENV')) {
      expect(rejectedVariables({ ...PRODUCTION, [name]: undefined })).toEqual([name]);
      expect(rejectedVariables({ ...PRODUCTION, [name]: '' })).toEqual([name]);
    }
  });

  // Issue 32, point 7: a statement names who issues it. Production must say who; development
  // prints values that say they are not an operator's.
  it("reads one issuer for statements and invoices, its NIT checked and stored without separators; development's says it is one", () => {
    expect(parseEnv(PRODUCTION)).toMatchObject({
      ISSUER_LEGAL_NAME: 'Servicios de Consulta Tributaria, S.A.',
      ISSUER_NIT: '576937K',
      ISSUER_ADDRESS: '6a. avenida 10-50, zona 9, Ciudad de Guatemala',
    });
    expect(rejectedVariables({ ...PRODUCTION, ISSUER_NIT: '576937-1' })).toEqual(['ISSUER_NIT']);
    expect(rejectedVariables({ ...PRODUCTION, ISSUER_LEGAL_NAME: 'Dos\nlíneas' })).toEqual(['ISSUER_LEGAL_NAME']);
    expect(rejectedVariables({ ...PRODUCTION, ISSUER_ADDRESS: 'x'.repeat(256) })).toEqual(['ISSUER_ADDRESS']);
    expect(rejectedVariables({ ISSUER_NIT: '12345' })).toEqual(['ISSUER_NIT']);

    const development = parseEnv({});
    expect(development).toMatchObject({ ...DEVELOPMENT_ISSUER, ISSUER_NIT: '576937K' });
    expect(DEVELOPMENT_ISSUER.ISSUER_LEGAL_NAME).toMatch(/desarrollo/i);
    expect(DEVELOPMENT_ISSUER.ISSUER_ADDRESS).toMatch(/desarrollo/i);
    // A development deployment may still name a real issuer, one setting at a time.
    expect(parseEnv({ ISSUER_LEGAL_NAME: 'Operadora de Prueba, S.A.' })).toMatchObject({ ISSUER_LEGAL_NAME: 'Operadora de Prueba, S.A.', ISSUER_NIT: '576937K' });
  });

  it('reads the issuer under its old names for one release, warns of each, and refuses two old names for two issuers', () => {
    const old = { STATEMENT_ISSUER_NAME: 'Operadora Antigua, S.A.', STATEMENT_ISSUER_NIT: '576937-K', STATEMENT_ISSUER_ADDRESS: 'Avenida Vieja 1-23, zona 1', FEL_ISSUER_MUNICIPALITY: 'Mixco' };
    const withoutIssuer = Object.fromEntries(Object.entries(PRODUCTION).filter(([name]) => !['ISSUER_LEGAL_NAME', 'ISSUER_NIT', 'ISSUER_ADDRESS'].includes(name)));
    expect(parseEnv({ ...withoutIssuer, ...old })).toMatchObject({ ISSUER_LEGAL_NAME: 'Operadora Antigua, S.A.', ISSUER_NIT: '576937K', ISSUER_ADDRESS: 'Avenida Vieja 1-23, zona 1', ISSUER_MUNICIPALITY: 'Mixco' });
    expect(renamedSettingsInUse({ ...withoutIssuer, ...old })).toEqual([
      'STATEMENT_ISSUER_NAME is the old name of ISSUER_LEGAL_NAME, read for this release only: rename it ISSUER_LEGAL_NAME',
      'STATEMENT_ISSUER_NIT is the old name of ISSUER_NIT, read for this release only: rename it ISSUER_NIT',
      'STATEMENT_ISSUER_ADDRESS is the old name of ISSUER_ADDRESS, read for this release only: rename it ISSUER_ADDRESS',
      'FEL_ISSUER_MUNICIPALITY is the old name of ISSUER_MUNICIPALITY, read for this release only: rename it ISSUER_MUNICIPALITY',
    ]);
    // The new name wins, and the old one is said to be ignored.
    expect(parseEnv({ ...PRODUCTION, STATEMENT_ISSUER_NIT: '1234567-9' }).ISSUER_NIT).toBe('576937K');
    expect(renamedSettingsInUse({ ...PRODUCTION, STATEMENT_ISSUER_NIT: '1234567-9' })).toEqual(['STATEMENT_ISSUER_NIT is the old name of ISSUER_NIT and is ignored (ISSUER_NIT is used): remove it']);
    // The same issuer under both old names is one; two are refused, whichever way the NIT is written.
    expect(parseEnv({ ...withoutIssuer, ...old, FEL_ISSUER_NIT: '576937k' }).ISSUER_NIT).toBe('576937K');
    expect(renamedSettingsInUse({ ...withoutIssuer, ...old, FEL_ISSUER_NIT: '576937k' })).toContain('FEL_ISSUER_NIT is the old name of ISSUER_NIT and is ignored (STATEMENT_ISSUER_NIT is used): remove it');
    expect(() => parseEnv({ ...withoutIssuer, ...old, FEL_ISSUER_NIT: '1234567-9' })).toThrow(
      'ISSUER_NIT: STATEMENT_ISSUER_NIT and FEL_ISSUER_NIT name different issuers, and statements and invoices name one: set ISSUER_NIT and remove both',
    );
    expect(() => parseEnv({ ...withoutIssuer, ...old, FEL_ISSUER_LEGAL_NAME: 'Otra Operadora, S.A.' })).toThrow(/ISSUER_LEGAL_NAME: STATEMENT_ISSUER_NAME and FEL_ISSUER_LEGAL_NAME name different issuers/);
    expect(renamedSettingsInUse(PRODUCTION)).toEqual([]);
  });

  it("reads the service's bank accounts as JSON, each bank one of Recargas' and no account twice; development has a sample, production none", () => {
    const account = { bank: 'BANRURAL', type: 'ahorro', number: '3-033-12345-6', holder: 'Servicios de Consulta Tributaria, S.A.', currency: 'GTQ' };
    expect(parseEnv({ ...PRODUCTION, TOP_UP_BANK_ACCOUNTS: JSON.stringify([account]) }).TOP_UP_BANK_ACCOUNTS).toEqual([account]);
    expect(parseEnv(PRODUCTION).TOP_UP_BANK_ACCOUNTS).toEqual([]);
    expect(parseEnv({}).TOP_UP_BANK_ACCOUNTS).toEqual(DEVELOPMENT_TOP_UP_BANK_ACCOUNTS);
    expect(DEVELOPMENT_TOP_UP_BANK_ACCOUNTS[0]!.holder).toMatch(/desarrollo/i);
    expect(parseEnv({ TOP_UP_BANK_ACCOUNTS: '[]' }).TOP_UP_BANK_ACCOUNTS).toEqual([]);
    const problems = (value: string) => {
      try {
        parseEnv({ TOP_UP_BANK_ACCOUNTS: value });
      } catch (error) {
        return (error as EnvError).problems;
      }
      throw new Error('expected parseEnv to reject the accounts');
    };
    expect(problems('BI 123')).toEqual([expect.stringMatching(/^TOP_UP_BANK_ACCOUNTS: must be a JSON list of accounts/)]);
    expect(problems(JSON.stringify([{ ...account, bank: 'BANCO-X' }]))).toEqual([expect.stringMatching(/^TOP_UP_BANK_ACCOUNTS\.0\.bank: must be one of the banks' codes: BI, BANRURAL/)]);
    expect(problems(JSON.stringify([{ ...account, type: 'corriente', currency: 'EUR' }])).map((problem) => problem.split(':')[0])).toEqual(['TOP_UP_BANK_ACCOUNTS.0.type', 'TOP_UP_BANK_ACCOUNTS.0.currency']);
    expect(problems(JSON.stringify([{ ...account, number: 'abc' }]))).toEqual([expect.stringMatching(/^TOP_UP_BANK_ACCOUNTS\.0\.number: must be the account number/)]);
    expect(problems(JSON.stringify([{ ...account, holder: 'Dos\nlíneas' }]))[0]).toMatch(/^TOP_UP_BANK_ACCOUNTS\.0\.holder/);
    expect(problems(JSON.stringify([account, { ...account, number: '3033123456' }]))).toEqual(['TOP_UP_BANK_ACCOUNTS: lists the same bank and account number twice']);
  });

  it('refuses to seed demo credentials in production', () => {
    expect(rejectedVariables({ ...PRODUCTION, SEED_ON_START: 'true' })).toEqual(['SEED_ON_START']);
  });

  it('leaves the alerts off unless a channel is configured, and reads a complete one', () => {
    const off = parseEnv({});
    expect([off.ALERT_WEBHOOK_URL, off.ALERT_SMTP_HOST, off.ALERT_LOW_BALANCE_DEFAULT_CENTAVOS, off.ALERT_REPEAT_INTERVAL_MINUTES]).toEqual([undefined, undefined, 10_000, 60]);
    const on = parseEnv({
      ...PRODUCTION,
      ALERT_WEBHOOK_URL: 'https://alertas.example.gt/hook',
      ALERT_WEBHOOK_SECRET: 'a-webhook-secret-of-at-least-32-chars',
      ALERT_SMTP_HOST: 'smtp.example.gt',
      ALERT_SMTP_USER: 'alertas',
      ALERT_SMTP_PASS: 'secreto',
      ALERT_EMAIL_FROM: 'alertas@example.gt',
      ALERT_EMAIL_TO: 'ana@example.gt, luis@example.gt',
    });
    expect(on.ALERT_EMAIL_TO).toEqual(['ana@example.gt', 'luis@example.gt']);
  });

  it('refuses half-configured alert channels, and a plain-http webhook in production', () => {
    expect(rejectedVariables({ ALERT_WEBHOOK_URL: 'http://127.0.0.1:9000/hook' })).toEqual(['ALERT_WEBHOOK_SECRET']);
    expect(rejectedVariables({ ALERT_WEBHOOK_SECRET: 'a-webhook-secret-of-at-least-32-chars' })).toEqual(['ALERT_WEBHOOK_URL']);
    expect(rejectedVariables({ ALERT_WEBHOOK_URL: 'http://127.0.0.1:9000/hook', ALERT_WEBHOOK_SECRET: 'short' })).toEqual(['ALERT_WEBHOOK_SECRET']);
    expect(rejectedVariables({ ALERT_SMTP_HOST: 'smtp.example.gt' })).toEqual(['ALERT_EMAIL_FROM']);
    expect(rejectedVariables({ ALERT_EMAIL_TO: 'ana@example.gt' })).toEqual(['ALERT_SMTP_HOST']);
    expect(rejectedVariables({ ALERT_SMTP_HOST: 'smtp.example.gt', ALERT_EMAIL_FROM: 'alertas@example.gt', ALERT_SMTP_USER: 'alertas' })).toEqual(['ALERT_SMTP_PASS']);
    expect(rejectedVariables({ ALERT_SMTP_HOST: 'smtp.example.gt', ALERT_EMAIL_FROM: 'alertas@example.gt', ALERT_EMAIL_TO: 'ana@example.gt, no es un correo' })).toEqual(['ALERT_EMAIL_TO.1']);
    expect(
      rejectedVariables({ ...PRODUCTION, ALERT_WEBHOOK_URL: 'http://alertas.example.gt/hook', ALERT_WEBHOOK_SECRET: 'a-webhook-secret-of-at-least-32-chars' }),
    ).toEqual(['ALERT_WEBHOOK_URL']);
  });

  it('refuses, by name and without echoing it, an alert URL or host the delivery could never use', () => {
    const secret = 'a-webhook-secret-of-at-least-32-chars';
    const refusal = (source: Record<string, string>) => {
      try {
        parseEnv(source);
      } catch (error) {
        return (error as EnvError).message;
      }
      throw new Error('expected parseEnv to reject the environment');
    };
    // fetch refuses credentials in a URL: every delivery would fail, its error quoting them.
    const withCredentials = refusal({ ALERT_WEBHOOK_URL: 'https://alertas:token-en-la-url@hooks.example.gt/recibir', ALERT_WEBHOOK_SECRET: secret });
    expect(withCredentials).toMatch(/ALERT_WEBHOOK_URL: must not carry a user name or password/);
    expect(withCredentials).not.toContain('token-en-la-url');
    expect(rejectedVariables({ ...PRODUCTION, ALERT_WEBHOOK_URL: 'https://alertas@hooks.example.gt/recibir', ALERT_WEBHOOK_SECRET: secret })).toEqual(['ALERT_WEBHOOK_URL']);
    // A port fetch never connects to ("bad port").
    expect(rejectedVariables({ ALERT_WEBHOOK_URL: 'http://127.0.0.1:6000/hook', ALERT_WEBHOOK_SECRET: secret })).toEqual(['ALERT_WEBHOOK_URL']);
    // An SMTP URL where a host name goes: nodemailer would look its whole text up as a host.
    const smtpUrl = refusal({ ALERT_SMTP_HOST: 'smtp://alertas:clave-smtp@smtp.example.gt:587', ALERT_EMAIL_FROM: 'alertas@example.gt' });
    expect(smtpUrl).toMatch(/ALERT_SMTP_HOST: must be a host name or an IP address only/);
    expect(smtpUrl).not.toContain('clave-smtp');
    // A token in the path or the query is the receiver's business: accepted (and never shown).
    expect(parseEnv({ ...PRODUCTION, ALERT_WEBHOOK_URL: 'https://hooks.example.gt/services/T0/B0/XyZ?token=abc', ALERT_WEBHOOK_SECRET: secret }).ALERT_WEBHOOK_URL).toBe(
      'https://hooks.example.gt/services/T0/B0/XyZ?token=abc',
    );
  });
});
