/**
 * For tests that start processes (the app, the CLI). They wait for events, never for the clock,
 * so a generous ceiling only matters on a slow or busy machine, where 30 s is too tight.
 */
export const PROCESS_TEST_TIMEOUT_MS = 180_000;
