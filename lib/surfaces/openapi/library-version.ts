/**
 * The client libraries' version (clients/, docs/clients.md): the OpenAPI document's, a contract
 * revision date, as a package version: 2026-11-01 → 2026.11.1.
 */
export function libraryVersion(documentVersion: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(documentVersion);
  if (!match) throw new Error(`the OpenAPI document's version ${documentVersion} is not a date (YYYY-MM-DD)`);
  return `${Number(match[1])}.${Number(match[2])}.${Number(match[3])}`;
}
