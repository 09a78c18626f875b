// A console client without a browser: a cookie jar and next-auth's credentials sign-in, as the
// sign-in form does it over HTTP.

export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
    const headers = new Headers({ ...this.extraHeaders, ...(init.headers as Record<string, string>) });
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(`${this.baseUrl}${path}`, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const separator = pair!.indexOf('=');
      const name = pair!.slice(0, separator);
      const value = pair!.slice(separator + 1);
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  private async csrfToken(): Promise<string> {
    return (JSON.parse((await this.request('/api/auth/csrf')).text) as { csrfToken: string }).csrfToken;
  }

  /** One sign-in attempt; null when a session cookie was issued, else the `error` code next-auth carried. */
  async signIn(email: string, password: string): Promise<string | null> {
    const form = new URLSearchParams({ csrfToken: await this.csrfToken(), email, password, json: 'true' });
    const answer = await this.request('/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    if (this.sessionCookie()) return null;
    const url = (JSON.parse(answer.text) as { url: string }).url;
    return new URL(url).searchParams.get('error') ?? `no session (HTTP ${answer.status})`;
  }

  async signOut(): Promise<void> {
    const form = new URLSearchParams({ csrfToken: await this.csrfToken(), json: 'true' });
    await this.request('/api/auth/signout', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }

  sessionCookie(): [string, string] | undefined {
    return [...this.cookies].find(([name]) => name.endsWith('next-auth.session-token'));
  }
}
