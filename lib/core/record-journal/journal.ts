// The durable side of "every query that reaches a source is recorded": when the
// database cannot take a record after the source answered (PostgreSQL stopped or unreachable
// mid-lookup), the write is appended to a journal file and flushed to disk (fdatasync) before the
// lookup answers, then written to the database when it is back. One file, one process: the
// directory is claimed at start like the embedded database's (a second process on it refuses to
// start), and a process that finds entries left by a crashed predecessor writes them first.
import fs from 'node:fs';
import path from 'node:path';

/** Appends whole JSON lines, flushed before `keep` resolves; hands them back in order. */
export class JournalFile<Entry> {
  private handle?: fs.promises.FileHandle;
  /** Every operation on the file runs after the previous one: appends never interleave with a compaction. */
  private queue: Promise<unknown> = Promise.resolve();
  private pendingCount = 0;

  constructor(readonly file: string) {}

  /**
   * Counts the entries already on disk (a previous process's); call once before anything else. A
   * line a crash cut short is removed first, so the next entry starts on a line of its own.
   */
  async open(): Promise<number> {
    await this.drop(0);
    return this.pendingCount;
  }

  /** Entries kept and not yet dropped. */
  get pending(): number {
    return this.pendingCount;
  }

  keep(entry: Entry): Promise<void> {
    const line = `${JSON.stringify(entry)}\n`;
    return this.serialized(async () => {
      this.handle ??= await fs.promises.open(this.file, 'a', 0o600);
      await this.handle.appendFile(line);
      await this.handle.datasync();
      this.pendingCount++;
    });
  }

  /** The entries on disk, oldest first. A last line cut short by a crash mid-write is not an entry. */
  read(): Promise<Entry[]> {
    return this.serialized(async () => {
      let text: string;
      try {
        text = await fs.promises.readFile(this.file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return completeLines(text).map((line) => JSON.parse(line) as Entry);
    });
  }

  /**
   * Drops the oldest `count` entries (written to the database); entries kept meanwhile stay. The
   * rest is written to a new file, flushed and renamed over the old one, so a crash leaves either.
   */
  drop(count: number): Promise<void> {
    return this.serialized(async () => {
      await this.handle?.close();
      this.handle = undefined;
      const text = await fs.promises.readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      const rest = completeLines(text).slice(count);
      const draft = `${this.file}.compacting`;
      const handle = await fs.promises.open(draft, 'w', 0o600);
      try {
        await handle.writeFile(rest.map((line) => `${line}\n`).join(''));
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(draft, this.file);
      await syncDirectory(path.dirname(this.file));
      this.pendingCount = rest.length;
    });
  }

  async close(): Promise<void> {
    await this.serialized(async () => {
      await this.handle?.close();
      this.handle = undefined;
    });
  }

  private serialized<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => {});
    return run;
  }
}

/** The journal's lines; a last line without its newline was cut short by a crash mid-write (never acknowledged). */
function completeLines(text: string): string[] {
  const lines = text.split('\n');
  lines.pop();
  return lines.filter((line) => line !== '');
}

/** A rename is durable once its directory is flushed. */
async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.promises.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
