import { lookupsChanged as lookupsChangedEvent } from '@/lib/core/integrations/events';
import { defineNotificationKind, guatemalaTime, on, type IntegrationNamed } from './notice';

/**
 * Lookups just enabled or disabled by the service's administrators, named as the console names them.
 * Once per change. For the technical contact: the lookups are what the integrator's systems may call.
 */
export const lookupsChanged = defineNotificationKind({
  kind: 'lookups_changed',
  tipo: 'consultas_cambiadas',
  contact: 'technical',
  label: 'Consultas habilitadas cambiadas',
  emailLabels: { habilitadas: 'Consultas habilitadas', deshabilitadas: 'Consultas deshabilitadas' },
  notice: ({ integration, enabled, disabled, changedAt }: { integration: IntegrationNamed; enabled: string[]; disabled: string[]; changedAt: Date }) => {
    const parts = [enabled.length ? `habilitó ${enabled.join(', ')}` : '', disabled.length ? `deshabilitó ${disabled.join(', ')}` : ''].filter(Boolean);
    const refused = disabled.length ? ' Las consultas deshabilitadas responden 403 (consulta no habilitada) hasta que se vuelvan a habilitar.' : '';
    return {
      integration,
      key: `consultas_cambiadas:${integration.id}:${changedAt.getTime()}`,
      titulo: 'Cambiaron sus consultas habilitadas',
      mensaje: `La administración del servicio ${parts.join(' y ')} para «${integration.nombre}», desde el ${guatemalaTime(changedAt)} (hora de Guatemala).${refused}`,
      datos: { habilitadas: enabled.join(', '), deshabilitadas: disabled.join(', '), aplica_desde: changedAt.toISOString() },
    };
  },
  docs: {
    when: 'La administración del servicio habilitó o deshabilitó consultas de su integración (`datos.habilitadas`, `datos.deshabilitadas`; vacía: ninguna). Uno por cambio.',
    exampleId: 10,
    example: ({ integration, now }) => ({ integration, enabled: ['Catálogo omisos'], disabled: ['RENAP por CUI'], changedAt: now }),
  },
  heard: on(lookupsChangedEvent),
});
