// The example 200 answers of the five lookups (lib/surfaces/api/success-examples.json, written by
// `npm run openapi:examples` from the simulator's fictitious population through the gateway's own
// clients and response builders). The test beside this file validates each against the
// contract's schemas, so an example cannot show a shape the API does not answer.
import type { LookupKind } from '@/db/schema';
import type { LOOKUP_CATALOGUE } from '@/lib/vocabulary/lookups';
import examples from './success-examples.json';

type UnderBaseUrl<Path> = Path extends `/api${infer Rest}` ? Rest : never;

/** Each lookup's path under {base_url} (lib/vocabulary/lookups.ts). */
export type LookupPath = UnderBaseUrl<(typeof LOOKUP_CATALOGUE)[LookupKind]['path']>;

export type SuccessExamples = Record<LookupPath, { request: Record<string, unknown>; response: unknown }>;

export const SUCCESS_EXAMPLES = examples as SuccessExamples;
