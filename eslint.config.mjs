import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  { ignores: ['.next/**', '.next-*/**', 'node_modules/**', '.data/**', 'db/migrations/**', 'next-env.d.ts', 'e2e-artifacts/**', 'test-results/**'] },
  {
    // The channels between server.mjs and the app are declared in one module, which both sides
    // import by name so the layer lint sees them.
    files: ['**/*.{ts,tsx,mjs,js,cjs}'],
    ignores: ['lib/platform/runtime/server-bridges.mjs'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Symbol'][callee.property.name='for'] > Literal[value=/^gateway\\./]",
          message: 'Declare the channel in lib/platform/runtime/server-bridges.mjs and import SERVER_BRIDGES.',
        },
      ],
    },
  },
];

export default config;
