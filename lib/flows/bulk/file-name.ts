// The name of a file uploaded to "Lotes", as the job's page shows it. Browsers send a bare name,
// but a client may send a path or anything else: only the last path part is kept, control and
// format characters (a right-to-left override that disguises an extension) go, spaces collapse,
// and it is cut to a length a page shows on one or two lines. A name is what the person called
// their file, not an identifier; it is never logged.

export const BULK_FILE_NAME_MAX = 120;

/** The name to store, or null when nothing readable is left. */
export function bulkFileName(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const lastPart = raw.split(/[/\\]/).at(-1) ?? '';
  const clean = lastPart
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim();
  if (clean === '') return null;
  const characters = [...clean];
  return characters.length <= BULK_FILE_NAME_MAX ? clean : `${characters.slice(0, BULK_FILE_NAME_MAX - 1).join('')}…`;
}
