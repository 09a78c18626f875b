// The example 200 answers /docs shows are answers the gateway gives today: each passes the
// contract's strict schema, and generating them again gives the committed file.
import { describe, expect, it } from 'vitest';
import { renapEnvelopeSchema, rtuNitsEnvelopeSchema, cuiNitSuccessSchema, rtuSuccessSchema, omisosSuccessSchema } from '@/lib/contract/envelopes';
import { renapRequestSchema, rtuNitsRequestSchema, catalogRequestSchema } from '@/lib/contract/requests';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';
import { SUCCESS_EXAMPLES } from './success-examples';
import { generateSuccessExamples } from '../../../scripts/write-openapi-examples';

const SCHEMAS = {
  '/renap/buscar-cui': [renapRequestSchema, renapEnvelopeSchema],
  '/rtu/nits': [rtuNitsRequestSchema, rtuNitsEnvelopeSchema],
  '/catalogos/cui-nit': [catalogRequestSchema, cuiNitSuccessSchema],
  '/catalogos/rtu': [catalogRequestSchema, rtuSuccessSchema],
  '/catalogos/omisos': [catalogRequestSchema, omisosSuccessSchema],
} as const;

describe('the example 200 answers', () => {
  for (const [path, [requestSchema, responseSchema]] of Object.entries(SCHEMAS) as Array<[keyof typeof SCHEMAS, (typeof SCHEMAS)[keyof typeof SCHEMAS]]>) {
    it(`${path}: the request and the answer follow the contract, and the document shows them`, () => {
      const example = SUCCESS_EXAMPLES[path];
      expect(requestSchema.safeParse(example.request).success).toBe(true);
      expect(responseSchema.safeParse(example.response).error).toBeUndefined();
      type Media = { example?: unknown; examples?: Record<string, { value: unknown }> };
      type Operation = { requestBody: { content: Record<string, Media> }; responses: Record<string, { content: Record<string, Media> }> };
      const operation = (buildOpenApiDocument('https://gateway.example.com/api').paths[path] as { post: Operation }).post;
      expect(operation.requestBody.content['application/json']!.example).toEqual(example.request);
      const ok = operation.responses['200']!.content['application/json']!;
      expect(path === '/rtu/nits' ? ok.examples?.found?.value : ok.example).toEqual(example.response);
    });
  }

  it('are what the gateway answers today (run `npm run openapi:examples` after changing a response shape)', async () => {
    expect(await generateSuccessExamples()).toEqual(SUCCESS_EXAMPLES);
  });
});
