// The personal-data keys every process of a test run uses (this one, the app, the CLI), so each can
// read what the others sealed. Fixed test values: never the development keys under .data/.
export const TEST_PERSONAL_DATA_KEYS = {
  PERSONAL_DATA_KEY: Buffer.alloc(32, 'test personal-data key').toString('base64'),
  PERSONAL_DATA_SEARCH_KEY: Buffer.alloc(32, 'test personal-data search key').toString('base64'),
} as const;
