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
  return dayRangeText(`${month}-01`, `${month}-${String(lastDay).padStart(2, '0')}`);
}

/**
 * Calendar days from and to (both included, YYYY-MM-DD) as a sentence says them: "del 1 al 15 de
 * junio de 2026", "del 20 de mayo al 3 de junio de 2026", "del 1 de diciembre de 2025 al 31 de
 * enero de 2026", "el 5 de junio de 2026".
 */
export function dayRangeText(from: string, to: string): string {
  const [fromYear, fromMonth, fromDay] = from.split('-');
  const [toYear, toMonth, toDay] = to.split('-');
  const day = (text: string) => String(Number(text));
  const monthOf = (number: string) => MONTH_NAMES[Number(number) - 1];
  if (from === to) return `el ${day(fromDay!)} de ${monthName(`${fromYear}-${fromMonth}`)}`;
  if (fromYear === toYear && fromMonth === toMonth) return `del ${day(fromDay!)} al ${day(toDay!)} de ${monthName(`${toYear}-${toMonth}`)}`;
  if (fromYear === toYear) return `del ${day(fromDay!)} de ${monthOf(fromMonth!)} al ${day(toDay!)} de ${monthOf(toMonth!)} de ${toYear}`;
  return `del ${day(fromDay!)} de ${monthOf(fromMonth!)} de ${fromYear} al ${day(toDay!)} de ${monthOf(toMonth!)} de ${toYear}`;
}

/** A calendar day (YYYY-MM-DD) as the console writes dates: 15/06/2026. */
export function dayText(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}
