// The constancias' signing keys of every app a test starts (tests/support/app-server.ts): fixed, so a
// receipt one test file issued verifies in another. NEXT_KEY is the rotation's next key, for the tests
// of a rotation. Test keys only: nothing signed with them proves anything.
export const TEST_CONSTANCIA_KEY = {
  kid: 'prueba-2026',
  jwk: { kty: 'OKP', crv: 'Ed25519', x: '3H6J6OtybqgSyLFxgUDvnD0L1K_T7rnWO0xQBHweV28', d: 'IvqlE-lazLyPq69RX7qRcTHtP2VuikFiIZP54CY3PjQ' },
  firmaDesde: '2000-01-01T00:00:00Z',
} as const;

export const TEST_CONSTANCIA_NEXT_KEY = {
  kid: 'prueba-2027',
  jwk: { kty: 'OKP', crv: 'Ed25519', x: '4lIkIDwaUUWNsxT4wPTQIez6nHd6qoxuQrMw77BHsDE', d: 'projKtKqDzs_Woh5IWzBDh2GCe18h0l-vxfrmF3uHjw' },
} as const;

export const TEST_CONSTANCIA_KEYS = { CONSTANCIA_SIGNING_KEYS: JSON.stringify([TEST_CONSTANCIA_KEY]) };
