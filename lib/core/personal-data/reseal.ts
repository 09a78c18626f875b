import { sql } from 'drizzle-orm';
import { database } from '@/db/client';
import { seal, sealedKeyId } from '@/lib/core/sealing/envelope';
import { resealIdentifierLinks } from './identifier-links';
import { personalDataKeys, type PersonalDataKeyring } from '@/lib/core/sealing/keys';
import { identifiersOfRecord, openRecord } from '@/lib/core/records/sealed';
import { resealSealedTables, type SealedTableName, type SealedTablesResealed } from './reseal-tables';
import { scrubErrorMessage } from '@/lib/core/sealing/scrub';
import { recordSearchKeys } from '@/lib/core/sealing/search-keys';
import { forgetPersonalDataState } from '@/lib/core/sealing/state';

const BATCH_ROWS = 2_000;

export interface ResealOptions {
  /** Records read and rewritten per statement (each batch is one short transaction). */
  batchRows?: number;
  /** Pause between batches, so the pass never competes for long with live traffic. */
  pauseMs?: number;
  /** Start from the first record even if an interrupted pass to the same keys could resume. */
  restart?: boolean;
  /** Stop after this many batches (the rest is done by the next run, which resumes). */
  maxBatches?: number;
  onBatch?: (progress: ResealProgress) => void;
  /** After the records: a batch of bulk job items or watch-list rows rewritten (the table's running count). */
  onTableBatch?: (table: SealedTableName, resealed: number) => void;
}

export interface ResealProgress {
  /** The last record id this run has finished. */
  afterId: number;
  scanned: number;
  resealed: number;
}

export interface ResealResult extends ResealProgress {
  /**
   * Whether every record was reached, and after them the identifier links, bulk job items, watch
   * lists and webhook secrets: nothing of theirs left in clear or under a previous key
   * (idempotency_keys' answers are not resealed: they expire within 24 hours).
   */
  complete: boolean;
  resumedAfterId: number;
  encryptionKeyId: string;
  searchKeyId: string;
  /** Rows rewritten once the records were done (0 each when the pass stopped before them). */
  identifierLinks: number;
  tables: SealedTablesResealed;
}

const NO_TABLES: SealedTablesResealed = { bulk_job_items: 0, watch_list_entries: 0, watch_list_changes: 0, integrations: 0, integration_identity_providers: 0, constancias: 0 };

type StoredRecord = {
  id: string | number;
  lookup: string;
  nit: string | null;
  cui: string | null;
  error_message: string | null;
  created_at: string;
};

interface Change {
  id: number;
  nit: string | null;
  cui: string | null;
  error_message: string | null;
  /** The record's complete set of search keys, when its stored ones differ. */
  search_keys: string[] | null;
}

/**
 * What a record needs to be stored as the current keys want it, or undefined when it already is:
 * NIT and CUI encrypted under PERSONAL_DATA_KEY (from clear, or from a previous key), search keys
 * hashed with PERSONAL_DATA_SEARCH_KEY (from clear normalized ones, or a previous key's), and an
 * error text without identifiers.
 */
function changeFor(record: StoredRecord, storedKeys: string[], keys: PersonalDataKeyring): Change | undefined {
  const opened = openRecord(record, keys);
  const identifiers = identifiersOfRecord(opened);
  const reseal = (stored: string | null, clear: string | null, purpose: 'nit' | 'cui') =>
    stored === null || clear === null || sealedKeyId(stored) === keys.encryption.id ? stored : seal(clear, purpose, keys);
  const nit = reseal(record.nit, opened.nit, 'nit');
  const cui = reseal(record.cui, opened.cui, 'cui');
  const errorMessage = record.error_message === null ? null : scrubErrorMessage(record.error_message, identifiers);
  const wanted = recordSearchKeys(identifiers, keys).sort();
  const stored = [...storedKeys].sort();
  const keysDiffer = wanted.length !== stored.length || wanted.some((key, index) => key !== stored[index]);
  if (nit === record.nit && cui === record.cui && errorMessage === record.error_message && !keysDiffer) return undefined;
  return { id: Number(record.id), nit, cui, error_message: errorMessage, search_keys: keysDiffer ? wanted : null };
}

/**
 * Brings every query record to the current personal-data keys, in batches of a few thousand by id,
 * while the service runs: the migration of records written in clear before encryption, and the
 * second half of a key rotation (encryption key, search key, or both). Each batch is one statement:
 * the records' new values, their search keys swapped (so search finds each record throughout) and
 * the pass's progress, together; an interrupted pass resumes after the last batch it finished.
 * Records written meanwhile are already sealed with the current keys. Values under a key that is
 * neither current nor in the PREVIOUS lists stop the pass, naming the key id.
 *
 * Once every record is done, the same run brings the identifier links and the sealed columns of
 * bulk job items, watch-list entries and changes and integrations' webhook secrets
 * (lib/core/personal-data/reseal-tables.ts) to the
 * current encryption key; those are not resumed from a position but idempotent: an interrupted run
 * run again finds its records done and goes over those tables again, rewriting only what is left.
 */
export async function resealRecords(options: ResealOptions = {}, keys: PersonalDataKeyring = personalDataKeys()): Promise<ResealResult> {
  const handle = await database();
  const batchRows = options.batchRows ?? BATCH_ROWS;
  const target = `${keys.encryption.id}/${keys.search.id}`;
  const [state] = await handle.rows<{ after_id: string | number | null; key_ids: string | null }>(sql`
    select reseal_after_id as after_id, reseal_key_ids as key_ids from personal_data_state where id = 1`);
  if (!state) throw new Error('personal_data_state is missing: run the migrations first (npm run db:migrate)');
  const resumedAfterId = !options.restart && state.key_ids === target && state.after_id !== null ? Number(state.after_id) : 0;
  await handle.rows(sql`
    update personal_data_state set reseal_after_id = ${resumedAfterId}::bigint, reseal_key_ids = ${target}::text, updated_at = now() where id = 1`);

  const progress: ResealProgress = { afterId: resumedAfterId, scanned: 0, resealed: 0 };
  for (let batch = 0; options.maxBatches === undefined || batch < options.maxBatches; batch++) {
    const records = await handle.rows<StoredRecord>(sql`
      select id, lookup, nit, cui, error_message, created_at from query_records
       where id > ${progress.afterId}::bigint order by id limit ${batchRows}::integer`);
    if (records.length === 0) {
      // And the links between a person's NIT and CUI, which the report finds by the same hashes.
      const identifierLinks = await resealIdentifierLinks(keys, batchRows);
      // And what bulk jobs, watch lists and webhooks keep sealed (read again in full each time: idempotent).
      const tables = await resealSealedTables({ batchRows, pauseMs: options.pauseMs, onBatch: options.onTableBatch }, keys);
      // Every record is under the current keys: the search stops looking for clear search keys.
      await handle.rows(sql`
        update personal_data_state set clear_records_remain = false, reseal_after_id = null, reseal_key_ids = null, updated_at = now()
         where id = 1 and reseal_key_ids = ${target}::text`);
      forgetPersonalDataState();
      return { ...progress, complete: true, resumedAfterId, encryptionKeyId: keys.encryption.id, searchKeyId: keys.search.id, identifierLinks, tables };
    }
    const firstId = Number(records[0]!.id);
    const lastId = Number(records.at(-1)!.id);
    // The primary key (record_id, identifier) serves this range.
    const stored = await handle.rows<{ record_id: string | number; identifier: string }>(sql`
      select record_id, identifier from query_record_identifiers where record_id between ${firstId}::bigint and ${lastId}::bigint`);
    const storedByRecord = new Map<number, string[]>();
    for (const row of stored) {
      const id = Number(row.record_id);
      storedByRecord.set(id, [...(storedByRecord.get(id) ?? []), row.identifier]);
    }
    const changes = records.map((record) => changeFor(record, storedByRecord.get(Number(record.id)) ?? [], keys)).filter((change) => change !== undefined);
    const searchKeys = changes.flatMap((change) => (change.search_keys ?? []).map((identifier) => ({ record_id: change.id, identifier })));
    // One statement: the records, their search keys (the old ones deleted, the new ones added, so
    // the record is found before and after) and the progress. A record the retention purge deleted
    // meanwhile is simply not updated, and gets no keys.
    await handle.rows(sql`
      with changes as (
        select * from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb)
          as c(id bigint, nit text, cui text, error_message text, search_keys jsonb)
      ),
      updated as (
        update query_records r set nit = c.nit, cui = c.cui, error_message = c.error_message
          from changes c where r.id = c.id
        returning r.id, r.created_at, c.search_keys is not null and c.search_keys <> 'null'::jsonb as rekeyed
      ),
      wanted as (
        select w.record_id, w.identifier, u.created_at
          from jsonb_to_recordset(${JSON.stringify(searchKeys)}::jsonb) as w(record_id bigint, identifier text)
          join updated u on u.id = w.record_id
      ),
      removed as (
        delete from query_record_identifiers i
         using updated u
         where u.rekeyed and i.record_id = u.id
           and not exists (select 1 from wanted w where w.record_id = i.record_id and w.identifier = i.identifier)
      ),
      added as (
        insert into query_record_identifiers (record_id, identifier, created_at)
        select record_id, identifier, created_at from wanted
        on conflict do nothing
      )
      update personal_data_state set reseal_after_id = ${lastId}::bigint, updated_at = now()
       where id = 1 and reseal_key_ids = ${target}::text`);
    progress.afterId = lastId;
    progress.scanned += records.length;
    progress.resealed += changes.length;
    options.onBatch?.({ ...progress });
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
  return { ...progress, complete: false, resumedAfterId, encryptionKeyId: keys.encryption.id, searchKeyId: keys.search.id, identifierLinks: 0, tables: { ...NO_TABLES } };
}
