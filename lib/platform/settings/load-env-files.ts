import nextEnv from '@next/env';
import { logger } from '@/lib/platform/logging/logger';

/** Scripts and the CLI read .env files exactly as `next` does, so both see the same settings. */
nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== 'production', {
  info: () => {},
  error: (...parts: unknown[]) => logger('config').error({ err: parts.find((part) => part instanceof Error) }, 'could not read a .env file'),
});
