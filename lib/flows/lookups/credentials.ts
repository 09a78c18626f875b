/** The two authentication headers, as sent (null when absent or empty). */
export interface Credentials {
  login: string | null;
  token: string | null;
  /** The client's own address (lib/core/limits/client-ip.ts), checked against the integration's allow-list. */
  clientAddress: string | null;
}

export const LOGIN_HEADER = 'x-integracion-login';
export const TOKEN_HEADER = 'x-integracion-token';

export function credentialsFrom(header: (name: string) => string | null, clientAddress: string | null): Credentials {
  return { login: header(LOGIN_HEADER) || null, token: header(TOKEN_HEADER) || null, clientAddress };
}
