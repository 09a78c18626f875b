// The route parsers classify each bad body into its own 400 message; the zod schemas describe the
// bodies in the OpenAPI document. This property test proves they accept exactly the same bodies,
// so the document cannot promise what the routes refuse or the other way round.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogRequestSchema, renapRequestSchema, rtuNitsRequestSchema } from '@/lib/contract/requests';
import { parseCatalogRequest, type CatalogName } from './catalog-request';
import { parseRenapRequest, parseRtuNitsRequest } from './registry-request';

const text = fc.oneof(
  fc.constantFrom('', ' ', '   ', '576937-K', '1587564440904', '2415 75181 0101', 'x'.repeat(32), 'x'.repeat(33), ' '.repeat(40)),
  fc.string({ maxLength: 40 }),
);
const anything = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(text, { maxLength: 2 }), fc.object({ maxDepth: 1 }));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const withoutUndefined = (object: Record<string, unknown>) => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));

const catalogBody = fc
  .record({
    nit: maybe(fc.oneof(text, anything)),
    cui: maybe(fc.oneof(text, anything)),
    actualizado: maybe(fc.oneof(fc.boolean(), anything)),
    date_of_birth: maybe(fc.oneof(text, anything)),
    extra: maybe(anything),
  })
  .map(withoutUndefined);

const asBody = (value: unknown) => ({ ok: true as const, value });

describe('request parsers and request schemas accept the same bodies', () => {
  it.each(['cui_nit', 'rtu', 'omisos'] as const)('catalog %s', (catalog: CatalogName) => {
    fc.assert(
      fc.property(fc.oneof(catalogBody, anything), (body) => {
        // Only /catalogos/rtu reads date_of_birth; the others ignore it, whatever it is.
        const described = catalog !== 'rtu' && typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, date_of_birth: undefined } : body;
        expect(parseCatalogRequest(catalog, asBody(body)).ok).toBe(catalogRequestSchema.safeParse(described).success);
      }),
      { numRuns: 2_000 },
    );
  });

  it('person registry', () => {
    fc.assert(
      fc.property(fc.oneof(fc.record({ cui: maybe(fc.oneof(text, anything)) }).map(withoutUndefined), anything), (body) => {
        expect(parseRenapRequest(asBody(body)).ok).toBe(renapRequestSchema.safeParse(body).success);
      }),
      { numRuns: 2_000 },
    );
  });

  it('RTU by NIT (the over-50 batch passes the parser and is refused by the RTU client)', () => {
    const nits = fc.oneof(fc.array(text, { maxLength: 3 }), fc.array(fc.constant('576937K'), { minLength: 49, maxLength: 52 }), anything);
    fc.assert(
      fc.property(fc.oneof(fc.record({ nits: maybe(nits) }).map(withoutUndefined), anything), (body) => {
        const parsed = parseRtuNitsRequest(asBody(body));
        const accepted = parsed.ok && parsed.value.nits.length <= 50;
        expect(accepted).toBe(rtuNitsRequestSchema.safeParse(body).success);
      }),
      { numRuns: 2_000 },
    );
  });
});
