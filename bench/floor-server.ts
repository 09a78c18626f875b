// The floor a lookup is measured against (issue 70, `npm run bench`): plain node:http doing a
// lookup's own I/O and nothing else. The same modules the gateway runs for it: the integration
// directory's in-memory token check, the hold, the source call through the gateway's own upstream
// clients, the settlement and record in one statement (the registries' record, with the journal's
// intent note), the same PostgreSQL client and pool settings, and the same JSON out. No Next, no
// stages, no limiter, admission queue, metrics, traces or log lines. Spawned by bench/main.ts with
// the instance's environment (node --import tsx, so `@/` resolves); says "listening" on stdout
// once it answers.
//
// With FLOOR_WITH_APP=1 (`npm run bench -- --floor-in-app`) the same floor runs in a process that
// also carries the whole app: Next's build prepared, its instrumentation started (migrations,
// jobs, runners) by a first request as server.mjs makes it, its pages served once, and every path
// but the lookups' handed to Next. The lookups still take the floor's own path; what they cost here
// beyond the plain floor is what the process costs them, not what the gateway does for them.
import http from 'node:http';
import { database } from '@/db/client';
import { outcomeUnknownRecord, placeHold, settleHold, voidHoldUnrecorded } from '@/lib/core/billing/holds';
import { integrationDirectory } from '@/lib/core/integrations/directory';
import { noteRegistryIntent, recordUnbilledOrKeep, startRecordJournal } from '@/lib/core/record-journal';
import { answeredPair } from '@/lib/core/records/answered-pair';
import { catalogAnswerIsEmpty } from '@/lib/core/records/empty-answer';
import { LookupSeals } from '@/lib/core/records/sealed';
import { parseCatalogRequest, type CatalogName } from '@/lib/flows/lookups/catalog-request';
import type { CatalogOutcome } from '@/lib/flows/lookups/catalog-outcome';
import { LOGIN_HEADER, TOKEN_HEADER } from '@/lib/flows/lookups/credentials';
import { parseRenapRequest, parseRtuNitsRequest } from '@/lib/flows/lookups/registry-request';
import type { RenapOutcome, RtuNitsOutcome } from '@/lib/flows/lookups/registries';
import { nodeHeader, readNodeJsonBody, type BodyRead } from '@/lib/platform/http/json-body';
import { newRequestId } from '@/lib/platform/http/new-request-id.mjs';
import { env } from '@/lib/platform/settings/env';
import { sourceClients } from '@/lib/sources';
import { catalogAnswer } from '@/lib/surfaces/api/catalog-responses';
import { renapAnswer, rtuNitsAnswer } from '@/lib/surfaces/api/registry-responses';
import { jsonAnswer, type LookupAnswer } from '@/lib/surfaces/api/responses';
import { catalogPathName, CATALOGS_BY_PATH_NAME } from '@/lib/vocabulary/lookups';

const MAX_BODY_BYTES = env().MAX_BODY_BYTES;

/** A lookup's answer, or the contract's refusal the floor needs no more than (the bench sends valid lookups). */
type Answerer = (request: http.IncomingMessage, requestId: string) => Promise<LookupAnswer>;

const refused = (status: number, requestId: string): LookupAnswer => jsonAnswer(status, { message: 'refused by the floor' }, requestId);

async function authenticated(request: http.IncomingMessage) {
  const authentication = await integrationDirectory().authenticate(nodeHeader(request, LOGIN_HEADER), nodeHeader(request, TOKEN_HEADER), request.socket.remoteAddress ?? null);
  return authentication.status === 'authenticated' ? authentication.integration : null;
}

function catalogLookup(catalog: CatalogName): Answerer {
  return async (message, requestId) => {
    const startedAt = performance.now();
    const integration = await authenticated(message);
    if (!integration) return refused(401, requestId);
    const parsed = parseCatalogRequest(catalog, await readNodeJsonBody(message, MAX_BODY_BYTES));
    if (!parsed.ok) return refused(400, requestId);
    const request = parsed.request;
    const seals = new LookupSeals();
    const known = { integrationId: integration.id, lookup: catalog, nit: request.nit ?? null, cui: request.cui ?? null, actualizado: request.actualizado, dateOfBirthSent: request.dateOfBirthSent, requestId };
    const hold = await placeHold(integration.id, requestId, outcomeUnknownRecord(known), seals);
    if (!hold) return refused(402, requestId);
    const result = await sourceClients().catalog.lookup(catalogPathName(catalog), { nit: request.nit, cui: request.cui, actualizado: request.actualizado, dateOfBirth: request.dateOfBirth });
    if (!result.ok && result.notSent) {
      await voidHoldUnrecorded(integration.id, hold, requestId);
      return refused(502, requestId);
    }
    const outcome: CatalogOutcome = result.ok ? { kind: 'success', data: result.value } : { kind: 'source_failure', failure: result.failure };
    await settleHold(
      hold,
      result.ok,
      {
        ...known,
        httpStatus: result.ok ? 200 : 502,
        responseTimeMs: Math.round(performance.now() - startedAt),
        errorMessage: result.ok ? null : result.detail,
        failure: result.ok ? null : result.fault,
        answerEmpty: result.ok ? catalogAnswerIsEmpty(result.value) : null,
        answeredPair: result.ok ? answeredPair(result.value) : null,
      },
      undefined,
      seals,
    );
    return catalogAnswer(outcome, requestId);
  };
}

/** Who asked what of a registry, as its record and its journal intent name it. */
interface RegistryAsked {
  integrationId: number;
  requestId: string;
  startedAt: number;
  seals: LookupSeals;
}

/**
 * A registry's lookup: the credentials, the body, the journal's intent (so a restart records a
 * query this process died in) around `ask`, which calls the registry and records its answer.
 */
function registryLookup<Parsed>(
  lookup: 'renap' | 'rtu_nits',
  parse: (body: BodyRead) => { ok: true; value: Parsed } | { ok: false },
  named: (request: Parsed) => { nit: string | null; cui: string | null; identifiers: string[] },
  ask: (request: Parsed, asked: RegistryAsked) => Promise<LookupAnswer>,
): Answerer {
  return async (message, requestId) => {
    const startedAt = performance.now();
    const integration = await authenticated(message);
    if (!integration) return refused(403, requestId);
    const parsed = parse(await readNodeJsonBody(message, MAX_BODY_BYTES));
    if (!parsed.ok) return refused(400, requestId);
    const seals = new LookupSeals();
    const ended = noteRegistryIntent({ integrationId: integration.id, lookup, ...named(parsed.value), requestId }, seals);
    try {
      return await ask(parsed.value, { integrationId: integration.id, requestId, startedAt, seals });
    } finally {
      ended();
    }
  };
}

const renap = registryLookup(
  'renap',
  parseRenapRequest,
  ({ cui }) => ({ nit: null, cui, identifiers: [cui] }),
  async ({ cui }, { integrationId, requestId, startedAt, seals }) => {
    const answer = await sourceClients().renap.searchByCui(cui);
    if (!answer.ok) return refused(500, requestId);
    const outcome: RenapOutcome = { kind: 'answered', httpStatus: answer.httpStatus, responseCode: answer.responseCode, message: answer.message, data: answer.data };
    const record = { integrationId, lookup: 'renap' as const, httpStatus: answer.httpStatus, nit: null, cui, identifiers: [cui], errorMessage: null, failure: null, requestId };
    await recordUnbilledOrKeep({ ...record, responseTimeMs: Math.round(performance.now() - startedAt), answerEmpty: answer.httpStatus === 200 ? answer.data === null : null }, seals);
    return renapAnswer(outcome, requestId);
  },
);

const rtuNits = registryLookup(
  'rtu_nits',
  parseRtuNitsRequest,
  ({ nits }) => ({ nit: nits.join(','), cui: null, identifiers: nits }),
  async ({ nits }, { integrationId, requestId, startedAt, seals }) => {
    const answer = await sourceClients().rtu.searchByNits(nits);
    if (!answer.ok) return refused(500, requestId);
    const outcome: RtuNitsOutcome = { kind: 'found', records: answer.records, requested: nits.length };
    const record = { integrationId, lookup: 'rtu_nits' as const, httpStatus: 200, nit: nits.join(','), cui: null, identifiers: nits, errorMessage: null, failure: null, requestId };
    await recordUnbilledOrKeep({ ...record, responseTimeMs: Math.round(performance.now() - startedAt), answerEmpty: answer.records.length === 0 }, seals);
    return rtuNitsAnswer(outcome, requestId);
  },
);

const ANSWERERS = new Map<string, Answerer>([
  ['/api/renap/buscar-cui', renap],
  ['/api/rtu/nits', rtuNits],
  ...Object.entries(CATALOGS_BY_PATH_NAME).map(([name, catalog]): [string, Answerer] => [`/api/catalogos/${name}`, catalogLookup(catalog as CatalogName)]),
]);

/** The pages the floor with the app serves once before it says it listens: the console's, the portal's and the public ones. */
const APP_PAGES = ['/api/health', '/admin/login', '/portal/ingresar', '/docs', '/estado', '/verificar'];

/**
 * Next prepared in this process, as server.mjs prepares it (the wrapper's mark, the socket address
 * in x-gateway-peer-ip), or null without FLOOR_WITH_APP.
 */
async function appHandler(): Promise<http.RequestListener | null> {
  if (process.env.FLOOR_WITH_APP !== '1') return null;
  const { SERVER_BRIDGES } = await import('@/lib/platform/runtime/server-bridges.mjs');
  (globalThis as Record<symbol, unknown>)[SERVER_BRIDGES.serverWrapper] = true;
  // As bench/app.ts starts the instance: its own address is its public one.
  process.env.NEXTAUTH_URL = `http://127.0.0.1:${process.env.PORT}`;
  const { default: next } = await import('next');
  const app = next({ dev: false, hostname: '127.0.0.1', port: Number(process.env.PORT) });
  await app.prepare();
  const handle = app.getRequestHandler();
  return (request, response) => {
    request.headers['x-gateway-peer-ip'] = request.socket.remoteAddress ?? '';
    void handle(request, response);
  };
}

async function main(): Promise<void> {
  // What the instance has ready before its first lookup: the pool, the directory, the journal.
  await database();
  await startRecordJournal(process.env.RECORD_JOURNAL_DIR ?? 'floor-record-journal');
  await integrationDirectory().start();
  const app = await appHandler();
  const server = http.createServer((request, response) => {
    const answerer = request.method === 'POST' ? ANSWERERS.get(request.url ?? '') : undefined;
    if (!answerer && app) return app(request, response);
    const requestId = newRequestId();
    const answered = answerer ? answerer(request, requestId) : Promise.resolve(refused(404, requestId));
    answered
      .catch((error: unknown) => {
        console.error(error);
        return refused(500, requestId);
      })
      .then((answer) => {
        response.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body ?? '') }).end(answer.body ?? undefined);
      });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT), '127.0.0.1', resolve));
  if (app) {
    for (const page of APP_PAGES) {
      const answer = await fetch(`http://127.0.0.1:${process.env.PORT}${page}`);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`the floor's app answered ${page} with ${answer.status}`);
    }
  }
  console.log('listening');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

void main();
