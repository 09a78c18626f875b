import nextEnv from '@next/env';

/** Scripts and the CLI read .env files exactly as `next` does, so both see the same settings. */
nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== 'production', { info: () => {}, error: console.error });
