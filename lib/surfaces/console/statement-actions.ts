// Issuing an integration's monthly statement
// (app/admin/(console)/integraciones/[id]/estados/actions.ts is its entry point).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { fromResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { idField } from '@/lib/presentation/form-fields';
import { integrationPath } from '@/lib/surfaces/console/integration-sections';
import { MONTH_PATTERN } from '@/lib/flows/statements/figures';
import { monthName } from '@/lib/platform/time/months';
import { issueStatement } from '@/lib/flows/statements/statements';

const issueSchema = z.object({
  integrationId: idField,
  mes: z.string({ error: 'Elija un mes.' }).regex(MONTH_PATTERN, 'Elija un mes.'),
});

/** Issues (or finds, if it was issued already) an integration's statement for a month (admin). */
export const issueStatementAction = consoleAction({ role: 'admin', schema: issueSchema }, async (input, user) => {
  const result = await issueStatement(user.actor, input.integrationId, input.mes);
  // The statements are listed in the saldo section, where they are issued.
  if (result.ok) revalidatePath(integrationPath(input.integrationId, 'saldo'));
  return fromResult(result, (statement) => ({
    message: `Estado de cuenta de ${monthName(statement.month)} listo.`,
    data: { month: statement.month },
  }));
});
