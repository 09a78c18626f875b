import { alertCondition, type AlertCondition, type NonNoticeCondition } from '@/db/schema';
import { NON_NOTICE_CONDITION_LABELS } from '@/lib/presentation/alert-labels';
import { NOTIFICATIONS } from './kinds';

/** Every alert condition's name (Alertas, Notificaciones, the audit): a notice kind's is its own (kinds/), the others' the console's. */
export const CONDITION_LABELS: Readonly<Record<AlertCondition, string>> = Object.fromEntries(
  alertCondition.enumValues.map((condition) => [condition, NOTIFICATIONS.find(condition)?.label ?? NON_NOTICE_CONDITION_LABELS[condition as NonNoticeCondition]]),
) as Record<AlertCondition, string>;

export function conditionLabel(condition: AlertCondition): string {
  return CONDITION_LABELS[condition];
}
