'use server';

// The entry points of an invoice's void, credit note, receptor correction and retry: lib/surfaces/console/invoice-actions.ts.
import * as invoice from '@/lib/surfaces/console/invoice-actions';

export const voidInvoiceAction = invoice.voidInvoiceAction;
export const creditNoteAction = invoice.creditNoteAction;
export const correctReceptorAction = invoice.correctReceptorAction;
export const retryInvoiceAction = invoice.retryInvoiceAction;
