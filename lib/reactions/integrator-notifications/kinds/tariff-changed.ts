import { formatQuetzales } from '@/lib/platform/money';
import { tariffChanged as tariffChangedEvent } from '@/lib/core/integrations/events';
import { defineNotificationKind, guatemalaTime, on, type IntegrationNamed } from './notice';

/**
 * The catalog lookups' tariff just changed (only the service's administrators change it, from the
 * console or the CLI): the old and the new, and the instant from which lookups are charged the new
 * one. Once per change. For billing: the tariff is what the balance pays.
 */
export const tariffChanged = defineNotificationKind({
  kind: 'tariff_changed',
  tipo: 'tarifa_cambiada',
  contact: 'billing',
  label: 'Tarifa cambiada',
  emailLabels: { tarifa_anterior_centavos: 'Tarifa anterior' },
  notice: ({ integration, previousCentavos, tariffCentavos, changedAt }: { integration: IntegrationNamed; previousCentavos: number; tariffCentavos: number; changedAt: Date }) => ({
    integration,
    key: `tarifa_cambiada:${integration.id}:${changedAt.getTime()}`,
    titulo: 'Cambió la tarifa por consulta',
    mensaje:
      `La tarifa por consulta de catálogo de «${integration.nombre}» cambió de ${formatQuetzales(previousCentavos)} a ${formatQuetzales(tariffCentavos)} ` +
      `desde el ${guatemalaTime(changedAt)} (hora de Guatemala); la cambió la administración del servicio. Las consultas desde entonces se cobran a la tarifa nueva.`,
    datos: { tarifa_anterior_centavos: previousCentavos, tarifa_centavos: tariffCentavos, aplica_desde: changedAt.toISOString() },
  }),
  docs: {
    when: 'La administración del servicio cambió la tarifa por consulta de catálogo: la anterior, la nueva y desde cuándo se cobra (`datos.aplica_desde`). Uno por cambio.',
    exampleId: 9,
    example: ({ integration, now }) => ({ integration, previousCentavos: 150, tariffCentavos: 200, changedAt: now }),
  },
  heard: on(tariffChangedEvent),
});
