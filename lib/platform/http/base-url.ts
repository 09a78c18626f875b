import { env } from '@/lib/platform/settings/env';

/**
 * This deployment's public origin: NEXTAUTH_URL when configured (production sets it), else the
 * host the request was addressed to. The contract says {base_url} is per environment and must not
 * be hard-coded, so the documentation takes it from here.
 */
export function publicOrigin(headers: Headers): string {
  const configured = env().NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const host = headers.get('x-forwarded-host') ?? headers.get('host') ?? 'localhost:3000';
  const protocol = headers.get('x-forwarded-proto') ?? 'http';
  return `${protocol}://${host}`;
}
