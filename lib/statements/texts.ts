// What statements and their previews say that code and tests both read.

/** On every page of a preview (the console's and the PDF's): it is not a statement. */
export const PREVIEW_MARK = 'Vista previa: no es un estado de cuenta emitido';

/** The footer of every page of a statement's PDF and of a preview's. */
export function pageLabel(page: number, pages: number): string {
  return `Página ${page} de ${pages}`;
}
