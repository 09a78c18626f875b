// One attempt to hand something to another party (an SMTP relay, a webhook receiver): how it went,
// never thrown, and its error in words that name what failed, never a secret.
import { withoutUrlSecrets } from '@/lib/platform/security/outbound-urls';

export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's HTTP status, or the SMTP server's reply code. */
  responseStatus: number | null;
  error: string | null;
  /** A failure no retry can fix (an integrator webhook's refused address): failed at once. */
  final?: boolean;
}

const MAX_ERROR_CHARS = 500;

/** An error and its causes in one line, a URL it quotes reduced to its description, cut to length. */
export function describeFailure(error: unknown, secretUrl?: string): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 3; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${code}: ${current.message}` : current.message);
  }
  const text = withoutUrlSecrets(parts.join(' ← ') || String(error), secretUrl);
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}
