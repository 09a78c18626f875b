import { formatDateTime, guatemalanToday } from '@/lib/platform/time/guatemala-time';

// The recovery codes as a text file, made in the browser from the codes already on screen: they
// never travel again, and never sit in an address or a log. No Node.js imports: a client component uses it.

export interface RecoveryCodesFile {
  fileName: string;
  content: string;
}

/** "Pasarela de consultas" → "pasarela-de-consultas": a file name's part without accents or spaces. */
function slug(text: string): string {
  return (
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'servicio'
  );
}

/**
 * The file: who it is for (the service, the console or the portal), when the codes were made
 * (Guatemala's time), how to use them, then one code a line. CRLF, so Windows' Notepad shows the lines.
 */
export function recoveryCodesFile(codes: string[], { serviceName, product, now = new Date() }: { serviceName: string; product: string; now?: Date }): RecoveryCodesFile {
  const lines = [
    `Códigos de recuperación de la verificación en dos pasos`,
    `${serviceName} (${product})`,
    `Generados el ${formatDateTime(now)} (hora de Guatemala)`,
    '',
    'Cada código sirve una sola vez, en lugar del código de la aplicación, si no tiene el teléfono a mano.',
    'Si genera códigos nuevos, estos dejan de servir. Guarde este archivo en un lugar seguro.',
    '',
    ...codes,
    '',
  ];
  return { fileName: `codigos-de-recuperacion-${slug(serviceName)}-${guatemalanToday(now)}.txt`, content: lines.join('\r\n') };
}
