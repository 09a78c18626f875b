// /verificar by a QR code's address (?constancia=<id>): the receipt this service holds, verified as
// anyone would verify it. Whoever holds the PDF holds the id; each view is written to the
// personal-data access log all the same (the page shows the identifiers the receipt holds).
import { constanciaById } from '@/lib/core/constancias/read';
import { writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { verificationBody } from '@/lib/presentation/constancia-verification';
import type { VerificationBody } from '@/lib/presentation/constancia-words';

/** Who the access log names for a view of the public page. */
const PUBLIC_VERIFICATION_ACTOR = 'Página pública de verificación (/verificar)';

export type HeldVerification = { kind: 'verified'; result: VerificationBody } | { kind: 'unknown' } | { kind: 'purged' };

export async function verifyHeldConstancia(id: string): Promise<HeldVerification> {
  const stored = await constanciaById(id);
  if (!stored) return { kind: 'unknown' };
  if (!stored.receipt) return { kind: 'purged' };
  const { body } = await verificationBody(stored.receipt);
  await writeAccessEntry({ actor: PUBLIC_VERIFICATION_ACTOR, kind: 'view', details: { constancia: stored.id } });
  return { kind: 'verified', result: body };
}
