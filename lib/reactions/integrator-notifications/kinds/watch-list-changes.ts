import { count, defineNotificationKind, type IntegrationNamed } from './notice';

/**
 * A watch list's run that found changes (Vigilancia): the list, the run, how many changes of each
 * kind and where to read them. Never a NIT, a name or a before/after value: those are read from the
 * API with the integration's credentials. Once per run (the run's job is the key).
 */
export interface WatchListChangeFacts {
  listPublicId: string;
  listName: string;
  jobPublicId: string;
  run: number;
  counts: Partial<Record<'registro' | 'omiso' | 'cobro_coactivo' | 'estado_rtu', number>>;
  total: number;
  /** Each change carries the constancia de consulta of the answer that showed it (the list asked for them). */
  constancias?: boolean;
}

const CHANGE_KIND_WORDS = {
  omiso: ['cambio de omiso', 'cambios de omiso'],
  cobro_coactivo: ['cambio de cobro coactivo', 'cambios de cobro coactivo'],
  estado_rtu: ['cambio de estado en el RTU', 'cambios de estado en el RTU'],
  registro: ['NIT que apareció o dejó de aparecer', 'NIT que aparecieron o dejaron de aparecer'],
} as const;

/** For the technical contact: those who watch suppliers read the changes from the systems that saved the list. Drafted by watch-lists.ts. */
export const watchListChanges = defineNotificationKind({
  kind: 'watch_list_changes',
  tipo: 'vigilancia_cambios',
  contact: 'technical',
  label: 'Cambios en una vigilancia',
  notice: ({ integration, changes }: { integration: IntegrationNamed; changes: WatchListChangeFacts }) => {
    const parts = (Object.keys(CHANGE_KIND_WORDS) as (keyof typeof CHANGE_KIND_WORDS)[])
      .filter((kind) => (changes.counts[kind] ?? 0) > 0)
      .map((kind) => count(changes.counts[kind]!, CHANGE_KIND_WORDS[kind][0], CHANGE_KIND_WORDS[kind][1]));
    const link = `/api/vigilancias/${changes.listPublicId}/cambios`;
    return {
      integration,
      key: `vigilancia_cambios:${changes.jobPublicId}`,
      titulo: 'Hay cambios en su vigilancia',
      mensaje:
        `La vigilancia ${changes.listPublicId} de «${integration.nombre}» encontró ${count(changes.total, 'cambio', 'cambios')} desde su ejecución anterior: ${parts.join(', ')}. ` +
        `Vea el antes y el después de cada uno en GET ${link}${changes.constancias ? ', con la constancia de consulta de la respuesta que lo mostró' : ''}.`,
      datos: {
        vigilancia: changes.listPublicId,
        ejecucion: changes.run,
        lote: changes.jobPublicId,
        cambios: changes.total,
        omiso: changes.counts.omiso ?? 0,
        cobro_coactivo: changes.counts.cobro_coactivo ?? 0,
        estado_rtu: changes.counts.estado_rtu ?? 0,
        registro: changes.counts.registro ?? 0,
        cambios_url: link,
      },
    };
  },
  docs: {
    when: 'Una ejecución de una vigilancia encontró cambios desde la anterior: cuántos de cada tipo (`datos.omiso`, `datos.cobro_coactivo`, `datos.estado_rtu`, `datos.registro`) y la ruta donde leer el antes y el después (`datos.cambios_url`); en una vigilancia con constancias, cada cambio allí trae la constancia de consulta de la respuesta que lo mostró (`constancia_id`, `constancia_url`), y el mensaje lo dice. Sin cambios no hay aviso. No lleva ningún NIT. Uno por ejecución.',
    exampleId: 21,
    example: ({ integration }) => ({
      integration,
      changes: { listPublicId: 'vig_5b2e91d04c7a3f18e6d2', listName: 'Proveedores', jobPublicId: 'lote_8d41c0a9f27b5e3c1a60', run: 4, counts: { omiso: 3, cobro_coactivo: 1, estado_rtu: 2 }, total: 6 },
    }),
  },
});
