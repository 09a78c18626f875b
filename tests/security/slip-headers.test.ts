// A deposit slip keeps its own headers through proxy.ts, against the built app: in the portal and
// in the console, a photo and a PDF that carries JavaScript arrive under the slip's sandbox policy
// and its cache header, never the page policy the proxy gives pages; the PDF is always a download,
// and the console's list previews a photo and offers the PDF as a download link.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/db/client';
import { topUpRequests } from '@/db/schema';
import { SLIP_CACHE_CONTROL, SLIP_CONTENT_SECURITY_POLICY } from '@/lib/flows/top-ups/slips';
import { createTestIntegration } from '../conformance/harness';
import { startApp, type RunningApp } from '../support/app-server';
import { addPortalMember, consoleSignedIn, newConsoleUser, portalSignedIn } from '../support/people';
import { says, type PortalClient } from '../support/portal-client';
import { slipPng } from '../support/slip-png';
import { useTestDatabase, type TestDatabase } from '../support/test-database';
import { PROCESS_TEST_TIMEOUT_MS } from '../support/timeouts';

/** A PDF that runs a script when a viewer opens it: accepted, since it starts with `%PDF-`. */
const PDF_WITH_JAVASCRIPT = [
  '%PDF-1.4',
  '1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >> endobj',
  '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
  '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
  "4 0 obj << /S /JavaScript /JS (fetch\\('/admin/usuarios'\\).then\\(r => r.text\\(\\)\\).then\\(t => app.alert\\(t\\)\\);) >> endobj",
  'trailer << /Root 1 0 R >>',
  '%%EOF',
].join('\n');

let testDatabase: TestDatabase;
let app: RunningApp;
let billing: PortalClient;
let staff: PortalClient;
const slipIds = { png: 0, pdf: 0 };

beforeAll(async () => {
  testDatabase = await useTestDatabase();
  const integration = await createTestIntegration('boletas-cabeceras');
  await addPortalMember(integration, 'pagos-boletas@example.com', 'facturacion');
  const support = await newConsoleUser('soporte-boletas@example.com', 'support');
  app = await startApp({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: '500' } });
  billing = await portalSignedIn(app.baseUrl, 'pagos-boletas@example.com');
  staff = await consoleSignedIn(app.baseUrl, support);
  for (const [reference, slip] of [
    ['FOTO-1', new Blob([new Uint8Array(slipPng())], { type: 'image/png' })],
    ['PDF-1', new Blob([PDF_WITH_JAVASCRIPT], { type: 'application/pdf' })],
  ] as const) {
    const answer = await billing.serverActionWithFiles(
      '/portal/recargas',
      'reportTopUpAction',
      { banco: 'BI', fecha: '2026-11-20', monto: '100', referencia: reference, envio: crypto.randomUUID() },
      { boleta: slip },
    );
    expect(says(answer, 'La administración lo revisará'), answer.text.slice(0, 500)).toBe(true);
  }
  const rows = await app.withDatabase(() => testDatabase.use(async () => (await db()).select().from(topUpRequests).where(eq(topUpRequests.integrationId, integration.id))));
  slipIds.png = rows.find((row) => row.reference === 'FOTO-1')!.id;
  slipIds.pdf = rows.find((row) => row.reference === 'PDF-1')!.id;
}, PROCESS_TEST_TIMEOUT_MS * 2);

afterAll(async () => {
  await app?.stop();
  await testDatabase?.cleanup();
});

const SLIP_ROUTES = [
  { area: 'portal', path: (id: number) => `/portal/recargas/${id}/boleta`, client: () => billing, photo: 'attachment' },
  { area: 'console', path: (id: number) => `/admin/recargas/${id}/boleta`, client: () => staff, photo: 'inline' },
] as const;

describe('deposit slips', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  for (const route of SLIP_ROUTES) {
    it(`the ${route.area}'s slip route answers a photo and a PDF with the slip's sandbox policy and cache header; the PDF only as a download`, async () => {
      for (const [kind, contentType, extension] of [
        ['png', 'image/png', 'png'],
        ['pdf', 'application/pdf', 'pdf'],
      ] as const) {
        const id = slipIds[kind];
        const what = `${route.path(id)} (${kind})`;
        const answer = await route.client().request(route.path(id));
        expect(answer.status, what).toBe(200);
        expect(answer.headers.get('content-type'), what).toBe(contentType);
        expect(answer.headers.get('content-security-policy'), what).toBe(SLIP_CONTENT_SECURITY_POLICY);
        expect(answer.headers.get('content-security-policy'), what).toMatch(/^sandbox;/);
        expect(answer.headers.get('cache-control'), what).toBe(SLIP_CACHE_CONTROL);
        expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
        const disposition = kind === 'pdf' ? 'attachment' : route.photo;
        expect(answer.headers.get('content-disposition'), what).toBe(`${disposition}; filename="boleta-recarga-${id}.${extension}"`);
      }
    });
  }

  it('the console previews a photo in the page and offers a PDF as a download link, never shown in the page', async () => {
    const page = await staff.request('/admin/recargas');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(new RegExp(`<img [^>]*src="/admin/recargas/${slipIds.png}/boleta"`));
    const pdfLink = new RegExp(`<a [^>]*href="/admin/recargas/${slipIds.pdf}/boleta"[^>]*>([^<]*)</a>`).exec(page.text);
    expect(pdfLink?.[0]).toMatch(/\bdownload=""/);
    expect(pdfLink?.[0]).not.toContain('target=');
    expect(pdfLink?.[1]).toBe('Descargar la boleta (PDF)');
    expect(page.text).not.toMatch(new RegExp(`<(?:img|iframe|embed|object)\\b[^>]*/admin/recargas/${slipIds.pdf}/boleta`));
  });
});
