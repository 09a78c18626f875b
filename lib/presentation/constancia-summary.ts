// A query's constancia as the portal's and the console's record pages show it (server side: it
// names the deployment's public address).
import { verificationAddress } from '@/lib/core/constancias/payload';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';

/** A receipt as the portal's and the console's record pages show it (components/constancias). */
export interface ConstanciaSummary {
  id: string;
  issuedAt: string;
  /** Where the PDF is posted for, with a reason. */
  downloadPath: string;
  /** The public verification page for it, as its PDF's QR code has it. */
  verificationUrl: string;
  /** False once the records' retention passed: its leaf and proofs stay, its text is gone. */
  held: boolean;
}

export function constanciaSummary(stored: { id: string; issuedAt: Date; receipt: string | null }, downloadPath: string): ConstanciaSummary {
  return { id: stored.id, issuedAt: `${formatDateTime(stored.issuedAt)} (hora de Guatemala)`, downloadPath, verificationUrl: verificationAddress(stored.id), held: stored.receipt !== null };
}

