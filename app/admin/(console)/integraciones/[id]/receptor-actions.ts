'use server';

// The entry points of an integration's invoice receptor and billing contact: lib/surfaces/console/receptor-actions.ts.
import * as receptor from '@/lib/surfaces/console/receptor-actions';

export const lookUpReceptorAction = receptor.lookUpReceptorAction;
export const saveReceptorAction = receptor.saveReceptorAction;
export const saveBillingContactAction = receptor.saveBillingContactAction;
