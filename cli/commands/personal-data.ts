// Personal data brought under the current keys: records, links, bulk items, watch lists, webhook and identity provider secrets.
import { resealRecords } from '@/lib/core/personal-data/reseal';
import { CliError } from '../errors';
import type { Commands } from './command';
import { count, counted } from './describe';

export const personalDataCommands: Commands = {
  'personal-data:reseal': {
    usage: {
      args: ['[--batch N] [--pause-ms MS] [--restart]'],
      description: [
        'lleva cada registro de consulta a las claves actuales PERSONAL_DATA_KEY y',
        'PERSONAL_DATA_SEARCH_KEY: cifra los registros aún en claro y vuelve a',
        'cifrar los que están bajo una clave anterior; por lotes de N (2000) según',
        'su id, cada uno una transacción corta, mientras el servicio atiende; si se',
        'interrumpe, sigue donde quedó (--restart: desde el primer registro).',
        'Después, igual por lotes, los vínculos NIT-CUI, los ítems de lotes y las',
        'listas de vigilancia (sus NIT, estados y cambios), los secretos de webhook',
        'y los secretos de cliente de los proveedores de identidad de las empresas',
        'aún bajo una clave anterior',
      ],
    },
    async run(_args, options) {
      const whole = (name: string, fallback: number, min: number) => {
        const value = typeof options[name] === 'string' ? Number(options[name]) : fallback;
        if (!Number.isInteger(value) || value < min || value > 50_000) throw new CliError(`--${name} es un número entero de ${min} a 50000`);
        return value;
      };
      const batchRows = whole('batch', 2_000, 1);
      const pauseMs = whole('pause-ms', 0, 0);
      const startedAt = Date.now();
      let lastReport = startedAt;
      const result = await resealRecords({
        batchRows,
        pauseMs,
        restart: options.restart === true,
        // Progress on stderr every 10 s (stdout is the result, --json included).
        onBatch: (progress) => {
          if (Date.now() - lastReport < 10_000) return;
          lastReport = Date.now();
          process.stderr.write(`… ${counted(progress.scanned, 'registro leído', 'registros leídos')}, ${count(progress.resealed)} vueltos a cifrar, hasta el id ${progress.afterId}\n`);
        },
        onTableBatch: (table, resealed) => {
          if (Date.now() - lastReport < 10_000) return;
          lastReport = Date.now();
          process.stderr.write(`… ${table}: ${count(resealed)} vueltos a cifrar\n`);
        },
      });
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      const { tables } = result;
      return {
        data: result,
        text:
          `${result.resumedAfterId > 0 ? `Siguió después del registro ${result.resumedAfterId}. ` : ''}` +
          `Leyó ${counted(result.scanned, 'registro de consulta', 'registros de consultas')} y volvió a cifrar ${count(result.resealed)}, en ${seconds} s. ` +
          `Volvió a cifrar también ${counted(result.identifierLinks, 'vínculo NIT-CUI', 'vínculos NIT-CUI')}, ` +
          `${counted(tables.bulk_job_items, 'ítem de lotes', 'ítems de lotes')}, ${counted(tables.watch_list_entries, 'NIT de listas de vigilancia', 'NIT de listas de vigilancia')}, ` +
          `${counted(tables.watch_list_changes, 'cambio de vigilancia', 'cambios de vigilancia')}, ` +
          `${counted(tables.integrations, 'secreto de webhook', 'secretos de webhook')}, ` +
          `${counted(tables.integration_identity_providers, 'secreto de cliente de un proveedor de identidad', 'secretos de cliente de proveedores de identidad')} ` +
          `y ${counted(tables.constancias, 'constancia de consulta', 'constancias de consulta')}. ` +
          `Los registros, esos vínculos, los lotes, las listas de vigilancia, las constancias y los secretos están ahora bajo la clave de cifrado ${result.encryptionKeyId} y la de búsqueda ${result.searchKeyId}: ` +
          'ya puede vaciar PERSONAL_DATA_PREVIOUS_SEARCH_KEYS, y PERSONAL_DATA_PREVIOUS_KEYS 24 horas después de reiniciar con la clave nueva ' +
          '(las respuestas guardadas por Idempotency-Key no se vuelven a cifrar: caducan en 24 horas).',
      };
    },
  },
};
