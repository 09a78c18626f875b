// A certified invoice's PDF and SAT verification link with this deployment's settings: the issuer
// the FEL_ISSUER_* settings name and FEL_VERIFICATION_URL. The console's and the portal's pages and
// downloads use these, so both show the same document.
import type { CertifiedCreditNote, CertifiedInvoice } from '@/lib/core/invoices/documents';
import { env, type Env } from '@/lib/platform/settings/env';
import { invoiceVerificationUrl, renderCreditNotePdf, renderInvoicePdf } from './pdf';
import { issuerOf } from './settings';

/** SAT's verification link of the invoice; null when the issuer's settings are missing (FEL turned off since). */
export function invoiceVerificationLink(invoice: CertifiedInvoice, settings: Env = env()): string | null {
  const issuer = issuerOf(settings);
  return issuer ? invoiceVerificationUrl(invoice, issuer, settings.FEL_VERIFICATION_URL) : null;
}

/** The invoice's PDF; null when the issuer's settings are missing. */
export async function invoicePdf(invoice: CertifiedInvoice, settings: Env = env()): Promise<Buffer | null> {
  const issuer = issuerOf(settings);
  if (!issuer) return null;
  return renderInvoicePdf(invoice, issuer, { serviceName: settings.SERVICE_NAME, verificationBaseUrl: settings.FEL_VERIFICATION_URL });
}

/** A certified credit note's PDF; null when the issuer's settings are missing. */
export async function creditNotePdf(note: CertifiedCreditNote, settings: Env = env()): Promise<Buffer | null> {
  const issuer = issuerOf(settings);
  if (!issuer) return null;
  return renderCreditNotePdf(note, issuer, { serviceName: settings.SERVICE_NAME, verificationBaseUrl: settings.FEL_VERIFICATION_URL });
}

/** The download's file name: SAT's serie and número, which say nothing of the receptor. */
export function invoiceFileName(invoice: Pick<CertifiedInvoice, 'serie' | 'numero'>, extension: 'pdf' | 'xml'): string {
  return `factura-${invoice.serie}-${invoice.numero}.${extension}`.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** A credit note's download name: its own serie and número. */
export function creditNoteFileName(note: { serie: string; numero: string }, extension: 'pdf' | 'xml' = 'xml'): string {
  return `nota-de-credito-${note.serie}-${note.numero}.${extension}`.replace(/[^A-Za-z0-9._-]/g, '_');
}
