/** The two authentication headers, as sent (null when absent or empty). */
export interface Credentials {
  login: string | null;
  token: string | null;
  /** The client's own address (lib/limits/client-ip.ts), checked against the integration's allow-list. */
  clientAddress: string | null;
}

export const LOGIN_HEADER = 'x-integracion-login';
export const TOKEN_HEADER = 'x-integracion-token';

export function credentialsFrom(headers: Headers, clientAddress: string | null): Credentials {
  return { login: headers.get(LOGIN_HEADER) || null, token: headers.get(TOKEN_HEADER) || null, clientAddress };
}
