'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { type ActionResult } from '@/lib/surfaces/console/action';
import { consoleAction } from '@/lib/surfaces/console/action';
import { alerts } from '@/lib/reactions/alerts/dispatcher';
import { sendTestAlert } from '@/lib/reactions/alerts/test-alert';
import { awaitFirstAttempts, describeTestOutcome, type TestOutcome } from '@/lib/reactions/alerts/test-outcome';

// The Alertas page's one change. Administrators only: support staff get a refusal from the
// server, whatever their browser sends. Audited.

/** A test alert to the administrators' channels; waits for the first attempts to say how they went. */
export const sendTestAlertAction = consoleAction({ role: 'admin', schema: z.object({}) }, async (_input, user): Promise<ActionResult<TestOutcome>> => {
  const dispatcher = alerts();
  const result = await sendTestAlert(user.actor, dispatcher);
  if (!result.ok) return { ok: false, message: result.error.message };
  // nodemailer gives up connecting after 10 s; a webhook after its ALERT_WEBHOOK_TIMEOUT_MS.
  const rows = await awaitFirstAttempts(result.value.deliveryIds, Math.max(dispatcher.settings.webhook?.timeoutMs ?? 0, 10_000) + 3_000);
  revalidatePath('/admin/alertas');
  return { ok: true, data: describeTestOutcome(rows, dispatcher.settings.maxAttempts) };
});
