// A console client without a browser: a cookie jar and next-auth's credentials sign-in, as the
// sign-in form does it over HTTP, and server actions called as React calls them.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './child-env';

export class ConsoleClient {
  readonly cookies = new Map<string, string>();

  constructor(
    protected readonly baseUrl: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  /** `text` as response.text() reads it (a byte-order mark dropped); `bytes` as they arrived. */
  async request(path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string; bytes: Buffer }> {
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
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, text: new TextDecoder().decode(bytes), bytes };
  }

  /** A GET whose body is binary (a PDF): its bytes. */
  async requestBytes(path: string): Promise<ArrayBuffer> {
    const headers = new Headers(this.extraHeaders);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(`${this.baseUrl}${path}`, { headers, redirect: 'manual' });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return response.arrayBuffer();
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

  /**
   * Calls a console (or portal) server action the way React does (POST to a page with the Next-Action
   * header and the arguments as JSON), with this client's cookies: what anyone holding the session
   * cookie can send without a button. Returns the raw React Server Components answer.
   */
  async serverAction(page: string, exportedName: string, input: Record<string, unknown>): Promise<{ status: number; text: string }> {
    const answer = await this.request(page, {
      method: 'POST',
      headers: { 'next-action': serverActionId(exportedName, page.startsWith('/portal') ? 'app/portal/' : 'app/admin/'), accept: 'text/x-component', 'content-type': 'text/plain;charset=UTF-8', origin: this.baseUrl },
      body: JSON.stringify([input]),
    });
    return { status: answer.status, text: answer.text };
  }

  /**
   * A server action sent with files among its arguments, as React encodes them: a multipart body
   * whose part "0" holds the arguments, each file in a part of its own named by the "$B<id>" that
   * stands for it in the arguments.
   */
  async serverActionWithFiles(page: string, exportedName: string, input: Record<string, unknown>, files: Record<string, Blob>): Promise<{ status: number; text: string }> {
    const body = new FormData();
    const args: Record<string, unknown> = { ...input };
    Object.entries(files).forEach(([name, file], index) => {
      body.append(String(index + 1), file);
      args[name] = `$B${(index + 1).toString(16)}`;
    });
    body.append('0', JSON.stringify([args]));
    const answer = await this.request(page, {
      method: 'POST',
      headers: { 'next-action': serverActionId(exportedName, page.startsWith('/portal') ? 'app/portal/' : 'app/admin/'), accept: 'text/x-component', origin: this.baseUrl },
      body,
    });
    return { status: answer.status, text: answer.text };
  }

  sessionCookie(): [string, string] | undefined {
    return [...this.cookies].find(([name]) => name.endsWith('next-auth.session-token'));
  }
}

/** The id under which the build the tests run registered a server action of the console (or of the portal, `folder` app/portal/). */
export function serverActionId(exportedName: string, folder = 'app/admin/'): string {
  const manifestPath = path.join(REPO_ROOT, process.env.NEXT_DIST_DIR || '.next', 'server', 'server-reference-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { node: Record<string, { exportedName?: string; filename?: string }> };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === exportedName && entry.filename?.startsWith(folder));
  if (!found) throw new Error(`No server action named ${exportedName} in ${manifestPath}`);
  return found[0];
}
