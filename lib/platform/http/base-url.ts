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

/**
 * This deployment's public origin without a request: NEXTAUTH_URL (required in production), or in
 * development the app's own listening address, as server.mjs prints it (HOST and PORT; localhost
 * when it listens on every interface). Never a request's Host: anyone can send one, and what is
 * signed or mailed must name this service.
 */
export function configuredOrigin(): string {
  const configured = env().NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const host = process.env.HOST;
  const name = !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${process.env.PORT ?? 3000}`;
}
