import { env } from '@/lib/platform/settings/env';

/** Whether the console's cookies are `Secure` (and prefixed __Secure- or __Host-): the public URL is https. */
export function sessionCookiesAreSecure(): boolean {
  return (env().NEXTAUTH_URL ?? '').startsWith('https://');
}
