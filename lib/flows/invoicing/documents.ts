// A certified invoice's PDF and SAT verification link with this deployment's settings: the issuer
// the FEL_ISSUER_* settings name and FEL_VERIFICATION_URL. The console's and the portal's pages and
// downloads use these, so both show the same document.
import type { CertifiedCreditNote, CertifiedInvoice } from '@/lib/core/invoices/documents';
import { PLATFORM_SETTINGS, type Env } from '@/lib/platform/settings/env';
import { currentSettings } from '@/lib/platform/settings/fragment';
import { ISSUER_SETTINGS, type IssuerSettings } from '@/lib/core/issuer/settings';
import { FEL_SETTINGS, type FelSettings } from '@/lib/providers/fel/settings';
import { invoiceVerificationUrl, renderCreditNotePdf, renderInvoicePdf } from './pdf';
import { issuerOf } from './settings';

/** What an invoice's documents read: the issuer, FEL's settings and the service's name. */
type DocumentSettings = IssuerSettings & FelSettings & Pick<Env, 'SERVICE_NAME'>;

const documentSettings = (): DocumentSettings => currentSettings([PLATFORM_SETTINGS, ISSUER_SETTINGS, FEL_SETTINGS]);

/** SAT's verification link of the invoice; null when the issuer's settings are missing (FEL turned off since). */
export function invoiceVerificationLink(invoice: CertifiedInvoice, settings: DocumentSettings = documentSettings()): string | null {
  const issuer = issuerOf(settings);
  return issuer ? invoiceVerificationUrl(invoice, issuer, settings.FEL_VERIFICATION_URL) : null;
}

/** The invoice's PDF; null when the issuer's settings are missing. */
export async function invoicePdf(invoice: CertifiedInvoice, settings: DocumentSettings = documentSettings()): Promise<Buffer | null> {
  const issuer = issuerOf(settings);
  if (!issuer) return null;
  return renderInvoicePdf(invoice, issuer, { serviceName: settings.SERVICE_NAME, verificationBaseUrl: settings.FEL_VERIFICATION_URL });
}

/** A certified credit note's PDF; null when the issuer's settings are missing. */
export async function creditNotePdf(note: CertifiedCreditNote, settings: DocumentSettings = documentSettings()): Promise<Buffer | null> {
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
