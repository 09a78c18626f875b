// POST /api/bench/bare?lookup=<name> - benchmark baseline only: the JSON a lookup answered, with
// none of the gateway's work (no proxy, credentials, limits, billing, source or record). It exists
// only while BENCH_BARE_RESPONSES_FILE is set (npm run bench sets it); otherwise it is a 404.
import fs from 'node:fs';

const responses = new Map<string, string>();

function cachedResponse(file: string, lookup: string): string | undefined {
  if (!responses.has(lookup)) {
    const all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const [name, body] of Object.entries(all)) responses.set(name, JSON.stringify(body));
  }
  return responses.get(lookup);
}

export async function POST(request: Request) {
  const file = process.env.BENCH_BARE_RESPONSES_FILE;
  const body = file ? cachedResponse(file, new URL(request.url).searchParams.get('lookup') ?? '') : undefined;
  if (body === undefined) return Response.json({ error: 'Not found.' }, { status: 404 });
  await request.text();
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
}
