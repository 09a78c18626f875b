/**
 * The NIT and CUI a catalog's 200 answer gives together, if it gives both: /catalogos/cui-nit and
 * /catalogos/omisos carry `nit` and `cui`, /catalogos/rtu carries `nit` and, for an individual,
 * `persona.dpi` (the CUI). The registries' answers are not read: the contract does not fix their
 * fields. Read from the answer as the contract shapes it, so a source's oddity only links nothing.
 */
export function answeredPair(data: unknown): { nit: string; cui: string } | null {
  if (typeof data !== 'object' || data === null) return null;
  const answer = data as { nit?: unknown; cui?: unknown; persona?: unknown };
  const persona = typeof answer.persona === 'object' && answer.persona !== null ? (answer.persona as { dpi?: unknown }) : undefined;
  const cui = typeof answer.cui === 'string' ? answer.cui : typeof persona?.dpi === 'string' ? persona.dpi : null;
  return typeof answer.nit === 'string' && answer.nit.trim() !== '' && cui !== null && cui.trim() !== '' ? { nit: answer.nit, cui } : null;
}
