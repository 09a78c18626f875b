// An integration's details form (app/admin/(console)/integraciones/[id]/details-actions.ts is its
// entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { ACTION_MESSAGES } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { idField } from '@/lib/presentation/form-fields';
import { integrationPaths } from '@/lib/surfaces/console/integration-sections';
import { detailsFormFields } from '@/lib/flows/integration-management/details-form';
import { setIntegrationDetails } from '@/lib/flows/integration-management/details-service';

// lib/flows/integration-management/details-schemas.ts validates and normalizes the details. Administrators only: support
// staff get a refusal from the server, whatever their browser sends.

export const setIntegrationDetailsAction = consoleAction(
  { role: 'admin', schema: z.object({ integrationId: idField, ...detailsFormFields }) },
  async ({ integrationId, ...details }, user) => {
    const result = await setIntegrationDetails(user.actor, integrationId, details);
    if (!result.ok) {
      return result.error.code === 'invalid'
        ? { ok: false, message: ACTION_MESSAGES.invalid, fieldErrors: result.error.fieldErrors }
        : { ok: false, message: result.error.message };
    }
    if (result.value.changed) {
      revalidatePath('/admin/integraciones');
      // The legal name heads every section of the integration.
      for (const path of integrationPaths(integrationId)) revalidatePath(path);
    }
    return { ok: true, message: result.value.changed ? 'Datos de la integración guardados.' : 'Sin cambios: los datos ya eran esos.', data: undefined };
  },
);
