import { SOURCE_LABELS } from '@/lib/vocabulary/labels';
import { defineNotificationKind, guatemalaTime, type IntegrationNamed, type NoticeWords } from './notice';

// Two kinds, one condition: a source unavailable for longer than INTEGRATOR_SOURCE_OUTAGE_MINUTES,
// and the same source back (told only to those told of its outage). Once per incident and
// integration. No event: a leased job reads the incidents (sources.ts).

export interface SourceIncident {
  integration: IntegrationNamed;
  incident: { source: string; label: string; since: Date; until?: Date };
}

const emailLabels = { fuente: 'Fuente', desde: 'No disponible desde', hasta: 'Disponible desde' };

function words({ integration, incident }: SourceIncident, tipo: string, said: Pick<NoticeWords, 'titulo' | 'mensaje'>): NoticeWords {
  return {
    integration,
    key: `${tipo}:${incident.source}:${incident.since.getTime()}:${integration.id}`,
    ...said,
    datos: { fuente: incident.label, fuente_id: incident.source, desde: incident.since.toISOString(), hasta: incident.until?.toISOString() ?? null },
  };
}

function sample(integration: IntegrationNamed, now: Date): SourceIncident {
  return { integration, incident: { source: 'catalog', label: SOURCE_LABELS.catalog, since: new Date(now.getTime() - 25 * 60_000) } };
}

export const sourceUnavailable = defineNotificationKind({
  kind: 'source_unavailable',
  tipo: 'fuente_no_disponible',
  contact: 'technical',
  label: 'Fuente no disponible',
  emailLabels,
  notice: (facts: SourceIncident) =>
    words(facts, 'fuente_no_disponible', {
      titulo: `${facts.incident.label} no está disponible`,
      mensaje:
        `La fuente «${facts.incident.label}» no responde desde el ${guatemalaTime(facts.incident.since)} (hora de Guatemala). ` +
        'Sus consultas a ella responden 502, sin cobro; puede reintentarlas. Le avisaremos cuando vuelva a estar disponible.',
    }),
  docs: {
    when: (settings) => `Una fuente que usan sus consultas lleva más de ${settings.sourceOutageMinutes} minutos sin responder. Uno por incidente.`,
    exampleId: 11,
    example: ({ integration, now }) => sample(integration, now),
  },
});

export const sourceRecovered = defineNotificationKind({
  kind: 'source_recovered',
  tipo: 'fuente_disponible',
  contact: 'technical',
  label: 'Fuente disponible de nuevo',
  emailLabels,
  notice: (facts: SourceIncident) =>
    words(facts, 'fuente_disponible', {
      titulo: `${facts.incident.label} está disponible de nuevo`,
      mensaje: `La fuente «${facts.incident.label}», que no respondía desde el ${guatemalaTime(facts.incident.since)} (hora de Guatemala), vuelve a responder. Sus consultas a ella funcionan con normalidad.`,
    }),
  docs: {
    when: 'La fuente de un aviso `fuente_no_disponible` responde de nuevo. Uno por incidente.',
    exampleId: 12,
    example: ({ integration, now }) => {
      const outage = sample(integration, now);
      return { ...outage, incident: { ...outage.incident, until: now } };
    },
  },
});

/** The claim key of an integration's outage notification (the recovery is sent only after one). */
export function sourceUnavailableKey(source: string, since: Date, integrationId: number): string {
  return `integrator:fuente_no_disponible:${source}:${since.getTime()}:${integrationId}`;
}
