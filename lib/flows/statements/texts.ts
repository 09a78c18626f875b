// What statements and their previews say that code and tests both read.

/** On every page of a preview (the console's and the PDF's): it is not a statement. */
export const PREVIEW_MARK = 'Vista previa: no es un estado de cuenta emitido';

/** Under a preview's period, on the page and in its PDF: when, and what it is not. */
export function previewIdentification(computedAt: string): string {
  return `Calculada el ${computedAt}. Sin número: no es un estado de cuenta emitido y no se guarda. Montos en quetzales (GTQ).`;
}

/** At the end of a preview, on the page and in its PDF. */
export const PREVIEW_CLOSING_NOTE =
  'Esta vista previa muestra las cifras del libro mayor y de los registros de consultas en el momento en que se calculó; si el periodo incluye el día ' +
  'de hoy, cambian con cada consulta, recarga o ajuste. El estado de cuenta de un mes se emite, con número, cuando el mes termina, y no cambia después.';

/** The most days one preview covers: a year, leap day included. */
export const PREVIEW_MAX_DAYS = 366;

/** Why the dates picked for a preview were not taken, each saying what to change. */
export const PREVIEW_RANGE_MESSAGES = {
  notADay: 'Use fechas válidas con el formato AAAA-MM-DD.',
  bothDays: 'Indique las dos fechas, desde y hasta, o ninguna para ver el mes en curso.',
  reversed: 'La fecha inicial es posterior a la final.',
  future: (today: string) => `La vista previa llega como mucho hasta hoy, ${today}.`,
  tooLong: `Una vista previa abarca como mucho ${PREVIEW_MAX_DAYS} días: acorta el periodo.`,
} as const;

/** The footer of every page of a statement's PDF and of a preview's. */
export function pageLabel(page: number, pages: number): string {
  return `Página ${page} de ${pages}`;
}
