// What the settings' tests share: how to read which variables an environment is refused for, and
// a production environment that passes, for each test to change one thing of.
import { expect } from 'vitest';
import { EnvError } from '@/lib/platform/settings/fragment';
import { parseEnv } from '@/lib/root/settings';
import { TEST_CONSTANCIA_KEYS } from './constancia-keys';

/** The names of the variables an invalid environment is rejected for. */
export function rejectedVariables(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems.map((problem) => problem.split(':')[0]!);
  }
  throw new Error('expected parseEnv to reject the environment');
}

/** A production environment parseEnv accepts. */
export const PRODUCTION = {
  APP_ENV: 'production',
  DATABASE_URL: 'postgres://gateway@db.internal:5432/gateway',
  NEXTAUTH_SECRET: 'a-production-secret-of-at-least-32-chars',
  NEXTAUTH_URL: 'https://gateway.example.gt',
  RENAP_API_KEY: 'renap-key',
  RTU_API_KEY: 'rtu-key',
  CATALOG_CLIENT_ID: 'catalog-id',
  CATALOG_CLIENT_SECRET: 'catalog-secret',
  RECORD_JOURNAL_DIR: '/var/lib/gateway/record-journal',
  SUPPORT_CONTACT_EMAIL: 'soporte@example.com',
  PERSONAL_DATA_KEY: Buffer.alloc(32, 1).toString('base64'),
  PERSONAL_DATA_SEARCH_KEY: Buffer.alloc(32, 2).toString('base64'),
  CONSTANCIA_SIGNING_KEYS: TEST_CONSTANCIA_KEYS.CONSTANCIA_SIGNING_KEYS,
  RENAP_BASE_URL: 'https://renap.example.gt/api',
  RTU_BASE_URL: 'https://rtu.example.gt/api',
  CATALOG_BASE_URL: 'https://catalogos.example.gt/api',
  ISSUER_LEGAL_NAME: 'Servicios de Consulta Tributaria, S.A.',
  ISSUER_NIT: '576937-K',
  ISSUER_ADDRESS: '6a. avenida 10-50, zona 9, Ciudad de Guatemala',
};
