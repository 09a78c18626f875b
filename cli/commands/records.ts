// Query records: listed (masked, or whole with a logged reason), purged past retention, partitioned by month.
import type { LookupKind } from '@/db/schema';
import { describeActor } from '@/lib/core/audit/audit';
import { completeAccessEntry, writeAccessEntry } from '@/lib/core/personal-data/access-log';
import { accessReasonSchema } from '@/lib/presentation/access-reason';
import { exportFiltersForLog } from '@/lib/core/personal-data/export-log';
import { listLatestRecords } from '@/lib/core/records/list';
import { partitionRecordsOnline } from '@/lib/core/records/partition-online';
import { isPlausibleRequestId, typedRequestId } from '@/lib/core/request-ids/typed';
import { describeRequestTrace } from '@/lib/presentation/request-traces';
import { requestTrace } from '@/lib/core/request-traces/read';
import { untracedAnswersText } from '@/lib/presentation/untraced-answers';
import { maskedIdentifiers } from '@/lib/core/sealing/masking';
import { purgeExpiredRecords } from '@/lib/flows/retention/purge';
import type { ConstanciaPurge } from '@/lib/core/constancias/retention';
import { formatQuetzales } from '@/lib/platform/money';
import { env } from '@/lib/platform/settings/env';
import { requestTraceSettings } from '@/lib/core/request-traces/settings';
import { recordRetentionSettings } from '@/lib/core/records/settings';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { CliError } from '../errors';
import { terminalSafe as safe } from '../terminal-text';
import { acceptedNames, integrationByArg, namedValue } from './arguments';
import { CLI_ACTOR, type Commands } from './command';
import { counted, LOOKUP_COLUMN, when } from './describe';

/** What a purge did to the constancias, in the words of the rest of its report. */
function constanciasPurgedText({ textsPurged, proofsPurged }: ConstanciaPurge): string {
  if (textsPurged === 0 && proofsPurged === 0) return 'Constancias: ninguna pasada su conservación.';
  return (
    `Constancias: ${counted(textsPurged, 'texto borrado', 'textos borrados')} con los registros y ` +
    `${counted(proofsPurged, 'constancia borrada', 'constancias borradas')} al vencer la conservación de su integración; ` +
    'cada tanda dejó su prueba de borrado en la auditoría.'
  );
}

export const recordCommands: Commands = {
  'records:list': {
    usage: {
      args: [
        '[--integration id|nombre] [--lookup consulta] [--identifier NIT-o-CUI]',
        '[--request-id req_…] [--limit N] [--motivo "ticket o razón"]',
      ],
      description: [
        'registros de consultas, el más reciente primero, con NIT y CUI',
        'enmascarados (--request-id: la consulta con ese x-request-id, ninguna si',
        'la solicitud se rechazó antes de llegar a una fuente); con --motivo salen',
        'completos y el acceso queda registrado; --identifier (un NIT o CUI',
        'escrito de cualquier forma, también dentro de lotes /rtu/nits) lo exige;',
        '--lookup es "RENAP por CUI" (renap), "RTU por NIT" (rtu_nits), "Catálogo',
        'CUI/NIT" (cui_nit), "Catálogo RTU" (rtu) o "Catálogo omisos" (omisos)',
      ],
    },
    async run(_args, options) {
      let integrationId: number | undefined;
      if (typeof options.integration === 'string') integrationId = (await integrationByArg([options.integration])).id;
      let lookup: LookupKind | undefined;
      if (typeof options.lookup === 'string') {
        lookup = namedValue(options.lookup, LOOKUP_LABELS);
        if (!lookup) throw new CliError(`--lookup admite ${acceptedNames(LOOKUP_LABELS)}; se recibió «${safe(options.lookup)}»`);
      }
      const limit = typeof options.limit === 'string' ? Number(options.limit) : 20;
      if (!Number.isInteger(limit) || limit < 1) throw new CliError('--limit es un número entero mayor que cero');
      const identifier = typeof options.identifier === 'string' ? options.identifier : undefined;
      // NIT and CUI in full, and a search by one, only with a reason, logged in "Accesos a datos
      // personales" as the console's full export is; otherwise masked.
      let reason: string | undefined;
      if (options.motivo !== undefined) {
        const parsed = accessReasonSchema.safeParse(typeof options.motivo === 'string' ? options.motivo : '');
        if (!parsed.success) throw new CliError(`--motivo: ${parsed.error.issues[0]!.message}`);
        reason = parsed.data;
      }
      if (identifier !== undefined && reason === undefined) {
        throw new CliError('--identifier busca los datos de una persona: agregue --motivo "ticket o razón"; el acceso queda registrado en Accesos a datos personales');
      }
      let requestId: string | undefined;
      if (typeof options['request-id'] === 'string') {
        requestId = typedRequestId(options['request-id']);
        if (!requestId || !isPlausibleRequestId(requestId)) {
          throw new CliError(`--request-id es un id de solicitud, como req_5f0c3a9d2b7e41c8a6f1 (se recibió «${safe(options['request-id'])}»)`);
        }
      }
      const filters = { integracion: integrationId, consulta: lookup, identificador: identifier, solicitud: requestId };
      // Logged before anything is printed: a listing that cannot be logged is not shown.
      const accessId = reason === undefined ? undefined : await writeAccessEntry({ actor: describeActor(CLI_ACTOR), kind: 'export', reason, details: { via: 'cli', ...exportFiltersForLog(filters) } });
      const found = await listLatestRecords(filters, limit);
      if (accessId !== undefined) await completeAccessEntry(accessId, { rows: found.length });
      const records = reason === undefined ? found.map((record) => maskedIdentifiers(record)) : found;
      const text = records
        .map(
          (record) =>
            `${when(record.createdAt)}  ${safe(record.integrationNombre)}  ${LOOKUP_LABELS[record.lookup].padEnd(LOOKUP_COLUMN)} ${record.httpStatus}  ${String(record.responseTimeMs).padStart(5)} ms  ${formatQuetzales(record.chargedCentavos)}  nit=${safe(record.nit ?? '-')} cui=${safe(record.cui ?? '-')}  ${safe(record.requestId)}`,
        )
        .join('\n');
      // A request id with no record: its trace (a refusal, an answer the service could not serve, or a
      // replay and the request it repeated) says what happened, as the console's search does
      // (lib/core/request-traces).
      const trace = requestId && records.length === 0 ? await requestTrace(requestId) : undefined;
      const none = trace
        ? `Ninguna consulta registrada tiene ese id: ${describeRequestTrace(trace)}.`
        : requestId
          ? `Ninguna consulta ni rechazo tiene el id de solicitud ${requestId}: no se envió a este servicio, es de hace más de ${requestTraceSettings().REQUEST_TRACE_RETENTION_DAYS} días o de hace unos segundos (vuelva a buscarla), o llegó con más de ${requestTraceSettings().REQUEST_TRACE_MAX_PER_MINUTE} por minuto a una instancia y quedó sin detalle. No se cobró: todo cobro tiene su consulta registrada. ${untracedAnswersText(env().REQUEST_RECEIVE_TIMEOUT_MS)}`
          : 'No hay consultas registradas.';
      return { data: records, text: text || none };
    },
  },
  'records:purge': {
    usage: {
      args: ['[--export-dir DIRECTORIO]'],
      description: [
        'borra los registros de consultas más antiguos que',
        'QUERY_RECORD_RETENTION_MONTHS (como la tarea diaria), antes archivados en',
        'DIRECTORIO como CSV comprimido con gzip, los envíos de alertas igual de antiguos,',
        'el texto de las constancias con sus registros y las constancias pasada la',
        'conservación de su integración (salvo retención legal)',
      ],
    },
    async run(_args, options) {
      const exportDir = typeof options['export-dir'] === 'string' ? options['export-dir'] : recordRetentionSettings().QUERY_RECORD_RETENTION_EXPORT_DIR;
      const result = await purgeExpiredRecords({ exportDir });
      return {
        data: {
          cutoff: result.cutoff.toISOString(),
          keptFrom: result.keptFrom.toISOString(),
          purged: result.purged,
          monthsDropped: result.monthsDropped.map((month) => month.toISOString().slice(0, 7)),
          exportFile: result.exportFile ?? null,
          alertDeliveriesPurged: result.alertDeliveriesPurged,
          constancias: result.constancias,
        },
        text:
          `Se borraron ${counted(result.purged, 'registro de consulta', 'registros de consultas')} anteriores a ${when(result.keptFrom)} ` +
          `y ${counted(result.alertDeliveriesPurged, 'envío de alertas', 'envíos de alertas')} anteriores a ${when(result.cutoff)}${result.exportFile ? `; los registros quedaron archivados en ${result.exportFile}` : ''}.\n` +
          constanciasPurgedText(result.constancias),
      };
    },
  },
  'records:partition': {
    usage: {
      args: ['[--batch N] [--pause-ms MS]'],
      description: [
        'particiona por mes una tabla de registros de consultas que la migración',
        'dejó sin particionar (más de 100,000 registros) mientras el servicio',
        'atiende: copia por lotes de N (20000) y cambia las tablas en una',
        'transacción de milisegundos (docs/deploy.md, «Partitioned query records»)',
      ],
    },
    async run(_args, options) {
      const batchRows = typeof options.batch === 'string' ? Number(options.batch) : 20_000;
      const pauseMs = typeof options['pause-ms'] === 'string' ? Number(options['pause-ms']) : 20;
      if (!Number.isInteger(batchRows) || batchRows < 1) throw new CliError('--batch es un número entero mayor que cero');
      if (!Number.isInteger(pauseMs) || pauseMs < 0) throw new CliError('--pause-ms es un número entero de milisegundos');
      const result = await partitionRecordsOnline({ batchRows, pauseMs });
      if (result.kind === 'already_partitioned') return { data: result, text: 'Los registros de consultas ya están particionados por mes: nada que hacer.' };
      if (result.kind === 'lock_not_taken') {
        throw new CliError(`no se pudo cambiar las tablas en ${result.attempts} intentos (una consulta larga las ocupaba); vuelva a ejecutarlo: lo copiado se conserva`);
      }
      const seconds = (ms: number) => (ms / 1000).toFixed(1);
      return {
        data: result,
        text:
          `Registros de consultas particionados por mes en ${seconds(result.totalMs)} s: copia ${seconds(result.copyMs)} s en ${result.batches} lotes, ` +
          `estadísticas ${seconds(result.analyzeMs)} s, cambio de tablas ${result.switchMs.toFixed(0)} ms (el único bloqueo de las consultas).`,
      };
    },
  },
};
