import nextEnv from '@next/env';

/**
 * Scripts and the CLI read .env files exactly as `next` does, so both see the same settings. A file
 * that cannot be read is said on stderr, before any logger exists (the logger reads these settings).
 */
nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== 'production', {
  info: () => {},
  error: (...parts: unknown[]) => {
    const error = parts.find((part) => part instanceof Error);
    process.stderr.write(`could not read a .env file${error ? `: ${error.message}` : ''}\n`);
  },
});
