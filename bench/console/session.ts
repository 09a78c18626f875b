// A console (or portal) session over HTTP, as a browser gets one: next-auth's CSRF token, then the
// credentials callback; the cookies it sets go with every page request afterwards.

export class ConsoleSession {
  private readonly cookies = new Map<string, string>();

  private constructor(readonly baseUrl: string) {}

  static async signIn(baseUrl: string, email: string, password: string): Promise<ConsoleSession> {
    const session = new ConsoleSession(baseUrl);
    const csrf = await session.request('/api/auth/csrf');
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signedIn = await session.request('/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, email, password, json: 'true' }).toString(),
      redirect: 'manual',
    });
    await signedIn.arrayBuffer();
    if (![...session.cookies.keys()].some((name) => name.endsWith('session-token'))) {
      throw new Error(`signing in as ${email} gave no session cookie (HTTP ${signedIn.status})`);
    }
    return session;
  }

  /** A session whose cookie was obtained otherwise (a portal session: lib/surfaces/portal's sign-in gives its id). */
  static withCookie(baseUrl: string, name: string, value: string): ConsoleSession {
    const session = new ConsoleSession(baseUrl);
    session.cookies.set(name, value);
    return session;
  }

  /** A request with the session's cookies; remembers the cookies the answer sets. */
  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const separator = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, separator), pair!.slice(separator + 1));
    }
    return response;
  }
}
