import type { BodyRead } from '@/lib/platform/http/json-body';
import { MAX_IDENTIFIER_LENGTH } from '@/lib/contract/requests';

export type RegistryRequestProblem =
  | 'content_type'
  | 'too_large'
  | 'malformed'
  | 'not_an_object'
  | 'cui_missing'
  | 'cui_not_text'
  | 'nits_missing'
  | 'nit_not_text'
  | 'identifier_too_long';

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: RegistryRequestProblem };

function objectBody(body: BodyRead): Parsed<Record<string, unknown>> {
  if (!body.ok) return { ok: false, problem: body.problem };
  if (typeof body.value !== 'object' || body.value === null || Array.isArray(body.value)) return { ok: false, problem: 'not_an_object' };
  return { ok: true, value: body.value as Record<string, unknown> };
}

/** POST /renap/buscar-cui: `cui`, a non-empty string. */
export function parseRenapRequest(body: BodyRead): Parsed<{ cui: string }> {
  const object = objectBody(body);
  if (!object.ok) return object;
  const cui = object.value.cui;
  if (cui === undefined || cui === null || (typeof cui === 'string' && cui.trim() === '')) return { ok: false, problem: 'cui_missing' };
  if (typeof cui !== 'string') return { ok: false, problem: 'cui_not_text' };
  if (cui.length > MAX_IDENTIFIER_LENGTH) return { ok: false, problem: 'identifier_too_long' };
  return { ok: true, value: { cui } };
}

/**
 * POST /rtu/nits: `nits`, a non-empty array of non-empty strings. The 50-NIT maximum is not
 * checked here: the RTU client refuses larger batches itself, as the contract describes.
 */
export function parseRtuNitsRequest(body: BodyRead): Parsed<{ nits: string[] }> {
  const object = objectBody(body);
  if (!object.ok) return object;
  const nits = object.value.nits;
  if (!Array.isArray(nits) || nits.length === 0) return { ok: false, problem: 'nits_missing' };
  if (!nits.every((nit): nit is string => typeof nit === 'string' && nit.trim() !== '')) return { ok: false, problem: 'nit_not_text' };
  if (nits.some((nit) => nit.length > MAX_IDENTIFIER_LENGTH)) return { ok: false, problem: 'identifier_too_long' };
  return { ok: true, value: { nits } };
}
