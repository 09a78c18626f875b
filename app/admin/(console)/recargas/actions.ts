'use server';

// The entry points of a top-up request's decision: lib/surfaces/console/top-up-actions.ts.
import * as topUps from '@/lib/surfaces/console/top-up-actions';

export const approveTopUpRequestAction = topUps.approveTopUpRequestAction;
export const rejectTopUpRequestAction = topUps.rejectTopUpRequestAction;
