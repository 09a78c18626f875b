const MONTH_NAMES = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];

/** "noviembre de 2026" for 2026-11. */
export function monthName(month: string): string {
  const [year, number] = month.split('-');
  return `${MONTH_NAMES[Number(number) - 1]} de ${year}`;
}

/** "del 1 al 30 de noviembre de 2026" for 2026-11. */
export function periodText(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return `del 1 al ${lastDay} de ${monthName(month)}`;
}
