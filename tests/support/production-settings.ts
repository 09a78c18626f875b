// The settings a production start requires beyond what tests/support/app-server.ts provides (a
// database, the journal, the personal-data keys): https URLs and the upstream credentials. The
// upstreams are never called by the tests that use these; only the start's checks read them.
export const TEST_PRODUCTION_SETTINGS = {
  APP_ENV: 'production',
  NEXTAUTH_URL: 'https://consola.example.test',
  RENAP_BASE_URL: 'https://renap.example.test/api',
  RENAP_API_KEY: 'renap-key',
  RTU_BASE_URL: 'https://rtu.example.test/api',
  RTU_API_KEY: 'rtu-key',
  CATALOG_BASE_URL: 'https://catalogos.example.test/api',
  CATALOG_CLIENT_ID: 'catalog-client',
  CATALOG_CLIENT_SECRET: 'catalog-secret',
  SUPPORT_CONTACT_EMAIL: 'soporte@example.test',
  ISSUER_LEGAL_NAME: 'Operadora de Prueba, S.A.',
  ISSUER_NIT: '576937-K',
  ISSUER_ADDRESS: 'Avenida de Prueba 1-23, zona 1, Ciudad de Guatemala',
} as const;
