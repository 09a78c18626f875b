// A client of the integrators' portal without a browser: the console client's cookie jar and
// server actions, and the portal's forms posted as a browser posts them before its scripts run
// (multipart, with the hidden fields React renders for a form bound to a server action).
import { expect } from 'vitest';
import type { PortalRole } from '../../db/schema';
import { PORTAL_DOWNLOAD_REFUSAL_TITLE, PORTAL_REFUSAL_TITLE } from '../../lib/surfaces/portal/refusals';
import { portalRolesSentence } from '../../lib/flows/portal-identity/roles';
import { ConsoleClient } from './console-client';

export interface FormAnswer {
  status: number;
  location: string | null;
  text: string;
  bytes: Buffer;
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#x27;': "'", '&#39;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };

function unescapeHtml(value: string): string {
  return value.replace(/&(?:quot|#x27|#39|lt|gt|amp);/g, (entity) => ENTITIES[entity]!);
}

/** The hidden inputs of the page's form that has a field named `field` (its code, its server action). */
export function formFields(html: string, field: string): Record<string, string> {
  const form = [...html.matchAll(/<form[\s\S]*?<\/form>/g)].map((match) => match[0]).find((candidate) => candidate.includes(`name="${field}"`));
  if (!form) throw new Error(`no form with a field named ${field} on the page`);
  const fields: Record<string, string> = {};
  for (const input of form.matchAll(/<input\b[^>]*>/g)) {
    const tag = input[0];
    if (!/type="hidden"/.test(tag)) continue;
    const name = /name="([^"]*)"/.exec(tag)?.[1];
    if (name === undefined) continue;
    fields[unescapeHtml(name)] = unescapeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? '');
  }
  return fields;
}

/** Whether an answer carries a text: in a page's HTML as written, or in a server action's RSC payload (JSON-escaped). */
export function says(answer: { text: string }, text: string): boolean {
  return answer.text.includes(JSON.stringify(text).slice(1, -1)) || answer.text.includes(text);
}

/** The links of a portal page's section navigation: what its reader is offered. */
export function portalNavLinks(html: string): string[] {
  const nav = /<nav[^>]*aria-label="Secciones del portal"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  return [...nav.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);
}

export class PortalClient extends ConsoleClient {
  /** Posts a form as a browser without scripts does: the page's hidden fields, then `values`. */
  async post(page: string, hidden: Record<string, string>, values: Record<string, string>): Promise<FormAnswer> {
    const body = new FormData();
    for (const [name, value] of Object.entries({ ...hidden, ...values })) body.append(name, value);
    const answer = await this.request(page, { method: 'POST', body, headers: { origin: new URL(this.baseUrl).origin } });
    return { status: answer.status, location: answer.headers.get('location'), text: answer.text, bytes: answer.bytes };
  }

  /** Opens `page` and posts its form (the one with a field named `field`). */
  async submit(page: string, field: string, values: Record<string, string>): Promise<FormAnswer> {
    const opened = await this.request(page);
    if (opened.status !== 200) throw new Error(`${page} answered ${opened.status}`);
    return this.post(page.split('?')[0]!, formFields(opened.text, field), values);
  }

  /** One sign-in through the portal's form: the landing path (a 303) when signed in, else the page's text. */
  async portalSignIn(email: string, password: string): Promise<FormAnswer> {
    return this.submit('/portal/ingresar', 'password', { email, password });
  }

  portalSessionCookie(): string | undefined {
    return [...this.cookies].find(([name]) => name.endsWith('portal-sesion'))?.[1];
  }
}

/** An answer of the portal: a request's (with headers) or a posted form's (with its location). */
type PortalAnswer = { status: number; text: string; headers?: Headers; location?: string | null };

/**
 * The portal navigation's links a page offers: its HTML, or, for a page Next renders in the browser
 * (a forbidden() or notFound() page, whose HTML is a shell), the items in the page's data.
 */
function offeredNavLinks(text: string): string[] {
  const inHtml = portalNavLinks(text);
  if (inHtml.length > 0) return inHtml;
  const items = /"items":\[([^\]]*)\],"label":"Secciones del portal"/.exec(text.replaceAll('\\"', '"'))?.[1] ?? '';
  return [...items.matchAll(/"href":"([^"]+)"/g)].map((match) => match[1]!);
}

/** A page's text as a person reads it: from its HTML, or from its data when the browser renders it. */
function shownText(text: string): string {
  return text.replaceAll('\\"', '"');
}

function shapeOf(answer: PortalAnswer) {
  return { status: answer.status, location: answer.location ?? answer.headers?.get('location') ?? null, type: answer.headers?.get('content-type')?.split(';')[0] ?? 'text/html' };
}

/**
 * A portal refusal as a person sees it: a 403 page at the address asked for (no redirect away),
 * with the portal's navigation, naming the roles that may open the page (or download the file).
 */
export function expectPortalRefusal(answer: PortalAnswer, allowed: readonly PortalRole[], what: 'página' | 'descarga' = 'página', label?: string): void {
  expect(shapeOf(answer), label).toEqual({ status: 403, location: null, type: 'text/html' });
  expect(offeredNavLinks(answer.text), label).toEqual(expect.arrayContaining(['/portal', '/portal/cuenta']));
  expect(shownText(answer.text), label).toContain(what === 'página' ? PORTAL_REFUSAL_TITLE : PORTAL_DOWNLOAD_REFUSAL_TITLE);
  expect(shownText(answer.text), label).toContain(`${what === 'página' ? 'Esta página' : 'Esta descarga'} es para ${portalRolesSentence(allowed)}.`);
}

/** A portal download that names nothing the session's integration has: a 404 page with the portal's navigation. */
export function expectPortalDownloadMissing(answer: PortalAnswer, title: string, label?: string): void {
  expect(shapeOf(answer), label).toEqual({ status: 404, location: null, type: 'text/html' });
  expect(portalNavLinks(answer.text), label).toEqual(expect.arrayContaining(['/portal', '/portal/cuenta']));
  expect(answer.text, label).toContain(`<h1>${title}</h1>`);
}
