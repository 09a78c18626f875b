// What an installed client library relies on in the OpenAPI document, and what would break it
// (docs/clients.md, "Kept in sync"): the operations, and each schema's fields and types. A library
// generated from one revision keeps working against the next only if no field it reads was removed
// or narrowed and no request asks for more than it sends. A breaking change needs a new revision
// (the document's version, the contract's revision date), which every library's version follows.

/** The part of the document the libraries depend on: its version, operations and schemas without their prose. */
export interface DocumentSurface {
  version: string;
  operations: string[];
  schemas: Record<string, unknown>;
}

interface OpenApiLike {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const PROSE = new Set(['description', 'example', 'examples', 'title', '$comment', 'deprecated']);

export function documentSurface(document: OpenApiLike): DocumentSurface {
  const operations = Object.entries(document.paths)
    .flatMap(([path, item]) => Object.keys(item).filter((method) => METHODS.has(method)).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
  return { version: document.info.version, operations, schemas: withoutProse(document.components.schemas) as Record<string, unknown> };
}

function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !PROSE.has(key))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, inner]) => [key, withoutProse(inner)]),
  );
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; items?: Schema; $ref?: string; anyOf?: Schema[]; oneOf?: Schema[] };

/** Each change from `before` to `after` that would break a library generated from `before`, in words. */
export function breakingChanges(before: DocumentSurface, after: DocumentSurface): string[] {
  const problems: string[] = [];
  for (const operation of before.operations) if (!after.operations.includes(operation)) problems.push(`the operation ${operation} was removed`);
  for (const [name, schema] of Object.entries(before.schemas)) {
    const next = after.schemas[name];
    if (next === undefined) problems.push(`the schema ${name} was removed`);
    else compareSchemas(name, schema as Schema, next as Schema, problems, name.endsWith('Request') ? 'request' : 'answer');
  }
  return problems;
}

/** A request's schema breaks its senders by asking more; an answer's breaks its readers by giving less. */
type Role = 'request' | 'answer';

function compareSchemas(where: string, before: Schema, after: Schema, problems: string[], role: Role): void {
  if (before.$ref !== undefined || after.$ref !== undefined) {
    if (before.$ref !== after.$ref) problems.push(`${where} now refers to ${after.$ref ?? 'an inline schema'} instead of ${before.$ref ?? 'an inline schema'}`);
    return;
  }
  const [was, is] = [typesOf(before), typesOf(after)];
  const lost = [...was].filter((type) => !is.has(type) && !(type === 'integer' && is.has('number')));
  if (was.size > 0 && is.size > 0 && lost.length > 0) problems.push(`${where} is no longer ${lost.join(' or ')} (now ${[...is].join(' or ')})`);
  if (before.enum && after.enum) {
    const removed = before.enum.filter((value) => !after.enum!.some((candidate) => JSON.stringify(candidate) === JSON.stringify(value)));
    if (removed.length > 0) problems.push(`${where} no longer takes ${removed.map((value) => JSON.stringify(value)).join(', ')}`);
  } else if (!before.enum && after.enum) {
    problems.push(`${where} is now limited to ${after.enum.map((value) => JSON.stringify(value)).join(', ')}`);
  }
  for (const [field, schema] of Object.entries(before.properties ?? {})) {
    const next = after.properties?.[field];
    if (next === undefined) problems.push(`${where}.${field} was removed`);
    else compareSchemas(`${where}.${field}`, schema, next, problems, role);
  }
  const [wasRequired, isRequired] = [before.required ?? [], after.required ?? []];
  // A field an answer always had and may now omit breaks its readers as surely as one removed.
  if (role === 'answer') for (const field of wasRequired) if (!isRequired.includes(field) && after.properties?.[field] !== undefined) problems.push(`${where}.${field} is no longer always present`);
  if (role === 'request') for (const field of isRequired) if (!wasRequired.includes(field)) problems.push(`${where}.${field} is now required`);
  if (before.items && after.items) compareSchemas(`${where}[]`, before.items, after.items, problems, role);
}

function typesOf(schema: Schema): Set<string> {
  const types = new Set<string>(Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const type of typesOf(alternative)) types.add(type);
  return types;
}
