// Registry lookups (RENAP, RTU by NIT) hold no money, so nothing of theirs reaches the database
// before their source is asked: an instance killed while a registry answered left that query
// unrecorded. Before each registry call the lookup appends what its record would
// say if it never finished ("resultado desconocido") to a file in the instance's journal directory;
// a restart on that directory writes those whose lookups left no record.
//
// One write(2) per lookup, not flushed: the operating system keeps what a killed process wrote (the
// case this covers); a machine that loses power may lose the last lines, as it loses the lookups'
// answers. The file changes every minute and the previous one is deleted once its lookups have all
// ended, so what a restart reads is a minute or two of intents, most of them already recorded
// (written again they add nothing: one record per request id).
import fs from 'node:fs';
import path from 'node:path';
import { outcomeUnknownRecord } from '@/lib/core/billing/holds';
import { logger } from '@/lib/platform/logging/logger';
import { personalDataKeys } from '@/lib/core/sealing/keys';
import { sealRecord, type LookupSeals, type SealedQueryRecord } from '@/lib/core/records/sealed';
import { recordUnbilledQueryAgain } from '@/lib/core/records/write';
import type { QueryRecordInput } from '@/lib/core/records/types';

/** A file is kept for this long before the next one starts (its lookups end within the source's ceiling). */
const GENERATION_MS = 60_000;
const FILE_PATTERN = /^registry-intents\.\d+\.jsonl$/;

const log = logger('record-journal');

/** What a registry lookup knows before it asks its source. */
export type RegistryIntent = Pick<QueryRecordInput, 'integrationId' | 'lookup' | 'nit' | 'cui' | 'identifiers' | 'requestId'>;

interface Generation {
  file: string;
  fd: number;
  openedAt: number;
  /** Lookups that noted their intent here and have not ended. */
  inFlight: number;
  retired: boolean;
}

export class RegistryIntentLog {
  private current?: Generation;
  private sequence = 0;

  constructor(
    private readonly directory: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Appends the intent (sealed, as every record at rest) before the source is asked; the returned
   * function is called once the lookup's record is written or journaled, or when it turned out
   * not to reach the source.
   */
  note(intent: RegistryIntent, seals?: LookupSeals): () => void {
    const generation = this.generation();
    fs.writeSync(generation.fd, `${JSON.stringify(sealRecord(outcomeUnknownRecord(intent), personalDataKeys(), seals))}\n`);
    generation.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      generation.inFlight--;
      if (generation.retired && generation.inFlight === 0) this.remove(generation);
    };
  }

  /** Starts the next file if the current one is old enough; called on each note and from a timer. */
  rotate(): void {
    const current = this.current;
    if (!current || this.now() - current.openedAt < GENERATION_MS) return;
    this.current = undefined;
    current.retired = true;
    fs.closeSync(current.fd);
    if (current.inFlight === 0) this.remove(current);
  }

  private generation(): Generation {
    this.rotate();
    if (!this.current) {
      const openedAt = this.now();
      const file = path.join(this.directory, `registry-intents.${openedAt}${String(this.sequence++ % 1000).padStart(3, '0')}.jsonl`);
      this.current = { file, fd: fs.openSync(file, 'a', 0o600), openedAt, inFlight: 0, retired: false };
    }
    return this.current;
  }

  private remove(generation: Generation): void {
    fs.rm(generation.file, { force: true }, (error) => {
      if (error) log.error({ err: error, file: generation.file }, 'removing a file of registry intents failed');
    });
  }
}

/** Files of intents a previous process left in `directory` (call before this process writes any). */
export function leftIntentFiles(directory: string): string[] {
  return fs
    .readdirSync(directory)
    .filter((name) => FILE_PATTERN.test(name))
    .sort()
    .map((name) => path.join(directory, name));
}

/**
 * Writes the record of every intent in `file` whose lookup left none ("resultado desconocido"), then
 * deletes the file; how many intents it held. Throws, keeping the file, if the database does not
 * take them (tried again later). A last line a kill cut short is no intent: its lookup had not yet
 * asked the source.
 */
export async function completeLeftIntents(file: string): Promise<number> {
  const text = await fs.promises.readFile(file, 'utf8');
  const lines = text.split('\n');
  // Whatever follows the last newline was being written when the process died.
  lines.pop();
  for (const line of lines) {
    if (line.trim() === '') continue;
    await recordUnbilledQueryAgain(JSON.parse(line) as SealedQueryRecord);
  }
  await fs.promises.rm(file, { force: true });
  return lines.length;
}
