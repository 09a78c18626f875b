// «Verificar ahora» on the Panel (app/admin/(console)/(panel)/actions.ts is its entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { consoleAction } from '@/lib/surfaces/console/action';
import { startVerificationNow } from '@/lib/core/billing/verify-now';
import { findTypedIntegration } from '@/lib/surfaces/console/integrations';
import { balanceSettings } from '@/lib/core/billing/settings';

// "Verificar ahora" is open to support staff as well as administrators: the reconciliation only
// reads (it never changes money), support is who answers "were we charged?", and one run at a
// time across the instances bounds the load however often it is pressed (docs/decisions.md).

const startSchema = z.object({ integracion: z.string().trim().max(200, 'Escriba como máximo 200 caracteres.').default('') });

export const startLedgerVerification = consoleAction({ role: 'support', schema: startSchema }, async (input, user) => {
  let integrationId: number | undefined;
  if (input.integracion !== '') {
    const found = await findTypedIntegration(input.integracion);
    if (found === undefined || found === 'ambiguous') {
      return {
        ok: false,
        message: 'Revise los campos marcados en rojo y vuelva a enviar.',
        fieldErrors: {
          integracion:
            found === 'ambiguous'
              ? 'Varias integraciones se llaman así: elija una de la lista (lleva su número).'
              : 'Ninguna integración se llama así: elija una de la lista, escriba su número o deje el campo vacío para verificar todas.',
        },
      };
    }
    integrationId = found.id;
  }
  const { started, run } = await startVerificationNow(
    user.actor,
    { integrationId, sweepAfterSeconds: balanceSettings().HOLD_SWEEP_AFTER_SECONDS },
  );
  revalidatePath('/admin');
  return {
    ok: true,
    message: started
      ? 'Conciliación iniciada: su avance se muestra arriba.'
      : run?.finishedAt
        ? 'La conciliación que estaba en curso acaba de terminar: su resultado se muestra arriba.'
        : 'Ya hay una conciliación en curso: se muestra arriba; espere a que termine para iniciar otra.',
    data: { started, runId: run?.id ?? null },
  };
});
