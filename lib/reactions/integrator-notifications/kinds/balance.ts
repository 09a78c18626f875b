import { balanceCondition, lowBalanceThreshold, type BalanceSnapshot } from '@/lib/reactions/alerts/conditions';
import { formatQuetzales } from '@/lib/platform/money';
import { topUpGuidanceForNotice } from '@/lib/presentation/top-up-guidance';
import { defineNotificationKind, portalPage, type Context, type IntegrationNamed, type NotificationDraft } from './notice';

// Two kinds, one condition: the balance low (below the integration's threshold, the same one the
// administrators' alert uses) or exhausted, whichever it is now. No event: the alerts' dispatcher
// passes each balance it sees to the notifier (notifier.ts noteBalance), which calls balanceNotification.

const emailLabels = { umbral_centavos: 'Umbral de aviso' };

function datos(snapshot: BalanceSnapshot, context: Context) {
  return { saldo_centavos: snapshot.balanceCentavos, umbral_centavos: lowBalanceThreshold(snapshot, context), tarifa_centavos: snapshot.tariffCentavos };
}

function topUp(context: Context): string {
  return topUpGuidanceForNotice({ paysOnline: context.paysOnline ?? false }, portalPage(context, '/recargas'));
}

function sample(integration: IntegrationNamed, balanceCentavos: number): BalanceSnapshot {
  return { integrationId: integration.id, nombre: integration.nombre, tariffCentavos: 150, lowBalanceAlertCentavos: null, balanceCentavos };
}

export const balanceLow = defineNotificationKind({
  kind: 'balance_low',
  tipo: 'saldo_bajo',
  contact: 'billing',
  repeats: true,
  label: 'Saldo bajo',
  emailLabels,
  notice: (snapshot: BalanceSnapshot, context) => ({
    integration: { id: snapshot.integrationId, nombre: snapshot.nombre },
    key: `saldo_bajo:${snapshot.integrationId}`,
    titulo: 'Su saldo está bajo',
    mensaje: `El saldo de «${snapshot.nombre}» bajó a ${formatQuetzales(snapshot.balanceCentavos)}, por debajo de su umbral de aviso de ${formatQuetzales(lowBalanceThreshold(snapshot, context))}. ${topUp(context)}`,
    datos: datos(snapshot, context),
  }),
  docs: {
    when: 'El saldo bajó de su umbral de aviso (el de su integración, o el del servicio).',
    exampleId: 1,
    example: ({ integration }) => sample(integration, 8_000),
  },
});

export const balanceExhausted = defineNotificationKind({
  kind: 'balance_exhausted',
  tipo: 'saldo_agotado',
  contact: 'billing',
  repeats: true,
  label: 'Saldo agotado',
  emailLabels,
  notice: (snapshot: BalanceSnapshot, context) => ({
    integration: { id: snapshot.integrationId, nombre: snapshot.nombre },
    key: `saldo_agotado:${snapshot.integrationId}`,
    titulo: 'Su saldo se agotó',
    mensaje:
      `El saldo de «${snapshot.nombre}» es ${formatQuetzales(snapshot.balanceCentavos)} y no cubre la tarifa de ${formatQuetzales(snapshot.tariffCentavos)} por consulta. ` +
      `Las consultas responden 402 hasta que se recargue el saldo. ${topUp(context)}`,
    datos: datos(snapshot, context),
  }),
  docs: {
    when: 'El saldo ya no cubre la tarifa de una consulta: los catálogos responden 402 hasta que se recargue.',
    exampleId: 2,
    example: ({ integration }) => sample(integration, 100),
  },
});

/** The notice a balance calls for now: exhausted, low, or none. */
export function balanceNotification(snapshot: BalanceSnapshot, context: Context, now = new Date()): NotificationDraft | null {
  const condition = balanceCondition(snapshot, context);
  if (!condition) return null;
  return (condition === 'balance_exhausted' ? balanceExhausted : balanceLow).draft(snapshot, context, now);
}
