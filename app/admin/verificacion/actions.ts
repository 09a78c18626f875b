'use server';

// The entry point of signing in's second step: lib/surfaces/console/second-factor-actions.ts.
import * as secondFactor from '@/lib/surfaces/console/second-factor-actions';

export const verifySecondFactorAction = secondFactor.verifySecondFactorAction;
