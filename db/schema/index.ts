export * from './integrations';
export * from './ledger-entries';
export * from './query-records';
export * from './console-users';
export * from './audit-log';
export * from './sign-in-throttles';
export * from './console-sessions';
