import { allowListChanged as allowListChangedEvent } from '@/lib/core/integrations/events';
import { defineNotificationKind, on, type IntegrationNamed } from './notice';
import { changedByOf, changedByWords, NOT_YOURS, type ChangedBy } from './credentials';

/** The IP allow-list just replaced. Once per change (the instant it was saved names it). */
export const allowListChanged = defineNotificationKind({
  kind: 'allow_list_changed',
  tipo: 'lista_ip_cambiada',
  contact: 'technical',
  label: 'Direcciones IP permitidas cambiadas',
  emailLabels: { direcciones: 'Direcciones permitidas' },
  notice: ({ integration, allowedNetworks, changedAt, by }: { integration: IntegrationNamed; allowedNetworks: string[]; changedAt: Date; by: ChangedBy }) => {
    const list = allowedNetworks.length ? `solo acepta sus consultas desde ${allowedNetworks.join(', ')}` : 'acepta sus consultas desde cualquier dirección';
    return {
      integration,
      key: `lista_ip_cambiada:${integration.id}:${changedAt.getTime()}`,
      titulo: 'Cambió la lista de direcciones IP permitidas',
      mensaje: `Cambió la lista de direcciones IP permitidas de «${integration.nombre}» (la cambió ${changedByWords(by)}): la API ahora ${list}. ${NOT_YOURS}`,
      datos: { direcciones: allowedNetworks.join(', '), cambiada: changedAt.toISOString(), hecho_por: changedByWords(by) },
    };
  },
  docs: {
    when: 'Cambió la lista de direcciones IP permitidas (`datos.direcciones`; vacía: cualquier dirección). Uno por cambio.',
    exampleId: 8,
    example: ({ integration, now }) => ({ integration, allowedNetworks: ['203.0.113.7', '198.51.100.0/24'], changedAt: now, by: { kind: 'service' } as const }),
  },
  heard: on(allowListChangedEvent, ({ integration, allowedNetworks, changedAt, actor }) => ({ integration, allowedNetworks, changedAt, by: changedByOf(actor) })),
});
