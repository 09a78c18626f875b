// The character that stands for each hidden one.
const HIDDEN = '•';
const VISIBLE_AT_END = 4;

function maskOne(identifier: string): string {
  const trimmed = identifier.trim();
  if (trimmed === '') return trimmed;
  // Short ones (a 5-character NIT) keep at most half their characters visible.
  const visible = Math.min(VISIBLE_AT_END, Math.floor(trimmed.length / 2));
  return `${HIDDEN.repeat(trimmed.length - visible)}${trimmed.slice(trimmed.length - visible)}`;
}

/**
 * An identifier as a record keeps it, masked: only its last four characters (fewer for short ones)
 * stay, enough to tell records apart, not to name anyone. An /rtu/nits batch (NITs joined by
 * commas) is masked NIT by NIT.
 */
export function maskIdentifier(identifier: string): string {
  return identifier.split(',').map(maskOne).join(',');
}
