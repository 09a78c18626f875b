// The example 200 answers of the five lookups (lib/surfaces/api/success-examples.json, written by
// `npm run openapi:examples` from the simulator's fictitious population through the gateway's own
// clients and response builders). The test beside this file validates each against the
// contract's schemas, so an example cannot show a shape the API does not answer.
import examples from './success-examples.json';

export type LookupPath = '/renap/buscar-cui' | '/rtu/nits' | '/catalogos/cui-nit' | '/catalogos/rtu' | '/catalogos/omisos';

export type SuccessExamples = Record<LookupPath, { request: Record<string, unknown>; response: unknown }>;

export const SUCCESS_EXAMPLES = examples as SuccessExamples;
