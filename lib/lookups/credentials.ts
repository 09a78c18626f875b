/** The two authentication headers, as sent (null when absent or empty). */
export interface Credentials {
  login: string | null;
  token: string | null;
}

export const LOGIN_HEADER = 'x-integracion-login';
export const TOKEN_HEADER = 'x-integracion-token';

export function credentialsFrom(headers: Headers): Credentials {
  return { login: headers.get(LOGIN_HEADER) || null, token: headers.get(TOKEN_HEADER) || null };
}
