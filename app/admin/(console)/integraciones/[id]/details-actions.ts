'use server';

// The entry point of an integration's details form: lib/surfaces/console/integration-details-actions.ts.
import * as details from '@/lib/surfaces/console/integration-details-actions';

export const setIntegrationDetailsAction = details.setIntegrationDetailsAction;
