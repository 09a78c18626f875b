// Checks a live response against the OpenAPI document the app serves: the status must be
// documented for the operation, the content type too, and the body must match its schema. A
// response the document does not describe fails the test that received it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { buildOpenApiDocument } from '@/lib/surfaces/openapi/document';

const DOCUMENT_ID = 'openapi.json';

const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export interface ObservedResponse {
  /** The path under {base_url} as the document names it, e.g. /catalogos/rtu or /vigilancias/{id}. */
  path: string;
  /** The operation's method; POST when not given. */
  method?: 'get' | 'post' | 'patch' | 'delete';
  status: number;
  contentType: string | null;
  body: unknown;
}

export class OpenApiResponseValidator {
  private readonly document = buildOpenApiDocument('http://127.0.0.1/api');
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats.default(this.ajv);
    this.ajv.addSchema(this.document, DOCUMENT_ID);
  }

  /** The problems with a response; empty when the document describes it. */
  problems(response: ObservedResponse): string[] {
    const method = response.method ?? 'post';
    const name = `${method.toUpperCase()} ${response.path}`;
    const operation = (this.document.paths[response.path] as Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }> | undefined)?.[method];
    if (!operation) return [`${name} is not in the document`];
    const exact = String(response.status);
    // A status range ("4XX") covers what the document cannot list one by one (registry pass-through).
    const status = operation.responses[exact] ? exact : `${exact[0]}XX`;
    const documented = operation.responses[status];
    if (!documented) return [`${name} answered ${response.status}, a status the document does not list`];
    const mediaType = Object.keys(documented.content ?? {}).find((type) => (response.contentType ?? '').startsWith(type));
    if (!mediaType) return [`${name} ${response.status} answered ${response.contentType}, not one of ${Object.keys(documented.content ?? {}).join(', ')}`];
    const validate = this.validator(response.path, method, status, mediaType);
    if (validate(response.body)) return [];
    return (validate.errors ?? []).map((error) => `${name} ${response.status}: ${error.instancePath || '(body)'} ${error.message}`);
  }

  private validator(path: string, method: string, status: string, mediaType: string): ValidateFunction {
    const pointer = ['paths', path, method, 'responses', status, 'content', mediaType, 'schema'].map(pointerSegment).join('/');
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }
}

let shared: OpenApiResponseValidator | undefined;

/** Fails with every problem when the document does not describe the response. */
export function expectDocumentedResponse(response: ObservedResponse): void {
  shared ??= new OpenApiResponseValidator();
  const problems = shared.problems(response);
  if (problems.length > 0) throw new Error(`Response not described by the OpenAPI document:\n  ${problems.join('\n  ')}\nBody: ${JSON.stringify(response.body)}`);
}
