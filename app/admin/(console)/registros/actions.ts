'use server';

// The entry point of revealing a record's identifiers: lib/surfaces/console/record-actions.ts.
import * as records from '@/lib/surfaces/console/record-actions';

export const revealRecordIdentifiersAction = records.revealRecordIdentifiersAction;
