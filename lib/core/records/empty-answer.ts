// Whether a 200 carried any data, for the record (query_records.answer_empty): the contract lets
// the catalog source answer "succeeded" with nothing recognizable, which the gateway answers as a
// 200 whose fields are all null, and charges; support must be able to see that it happened.

/** The moment the source reports for its data: metadata, present even when nothing else is. */
const METADATA_FIELDS = new Set(['fechaConsulta']);

function holdsValue(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.some(holdsValue);
  if (typeof value === 'object') return Object.values(value).some(holdsValue);
  // A string, a number or a boolean, false included: null is not false (the contract).
  return true;
}

/**
 * A catalog result with no value about the taxpayer: every field null, every list empty, every
 * CodigoDescripcion with both fields null (its fechaConsulta aside). The contract says it cannot be
 * told apart from a real record whose attributes are all empty; either way there was nothing to read.
 */
export function catalogAnswerIsEmpty(data: object): boolean {
  return !Object.entries(data).some(([field, value]) => !METADATA_FIELDS.has(field) && holdsValue(value));
}
