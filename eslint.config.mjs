import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    // Upstream clients never touch the database or the features built on it: the guards emit
    // (onStateChange) and whoever cares (alerts, readiness) subscribes at start-up.
    files: ['lib/sources/**/*.ts'],
    ignores: ['lib/sources/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/db/*', '**/db/*', '@/lib/alerts/*', '**/alerts/*', '@/lib/billing/*', '**/billing/*', '@/lib/records/*', '**/records/*', '@/lib/integrations/*', '**/integrations/*'],
              message: 'lib/sources must not depend on the database or on features built on it: emit from the guard and subscribe at start-up (lib/root/startup.ts).',
            },
          ],
        },
      ],
    },
  },
  { ignores: ['.next/**', '.next-*/**', 'node_modules/**', '.data/**', 'db/migrations/**', 'next-env.d.ts', 'e2e-artifacts/**', 'test-results/**'] },
];

export default config;
