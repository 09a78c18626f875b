'use server';

// The entry points of an online payment's refunds: lib/surfaces/console/online-payment-actions.ts.
import * as onlinePayments from '@/lib/surfaces/console/online-payment-actions';

export const refundOnlinePaymentAction = onlinePayments.refundOnlinePaymentAction;
export const retryRefundCreditNoteAction = onlinePayments.retryRefundCreditNoteAction;
