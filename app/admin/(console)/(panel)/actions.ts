'use server';

// The entry point of «Verificar ahora»: lib/surfaces/console/verification-actions.ts.
import * as verification from '@/lib/surfaces/console/verification-actions';

export const startLedgerVerification = verification.startLedgerVerification;
