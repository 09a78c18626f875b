// The embedded database's socket (db/embedded-share.ts): a client and the process that has PGlite
// open share one PostgreSQL session, so they must take whole transactions in turns. Were they to
// take turns per protocol message, each would run inside the other's open transaction and see
// (or undo) rows it has not committed: these tests would see that.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveEmbeddedDatabase, type SharedDatabase } from './embedded-share';

let directory: string;
let owner: PGlite;
let shared: SharedDatabase;
let socketPath: string;
const clients: postgres.Sql[] = [];
/** What the owner does when a client's transaction raised a notification (db/client.ts: its listeners). */
let heard: (channel: string) => Promise<void> = async () => {};

function connect(): postgres.Sql {
  const client = postgres({ path: socketPath, max: 1, prepare: false, onnotice: () => {} });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-share-'));
  socketPath = path.join(directory, 'db.sock');
  owner = await PGlite.create();
  await owner.exec('create table notes (body text not null)');
  shared = await serveEmbeddedDatabase(owner, socketPath, (channel) => heard(channel));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end({ timeout: 1 })));
  await owner.exec('delete from notes');
});

afterAll(async () => {
  await shared?.close();
  await owner?.close();
  fs.rmSync(directory, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the embedded database shared on a socket', () => {
  it("keeps the owner's queries out of a client's open transaction", async () => {
    const client = connect();
    let countedAt = 0;
    let rolledBackAt = 0;
    let counting: Promise<number> | undefined;
    await client
      .begin(async (tx) => {
        await tx`insert into notes values ('uncommitted')`;
        counting = owner.query<{ n: number }>('select count(*)::int as n from notes').then((result) => {
          countedAt = performance.now();
          return result.rows[0]!.n;
        });
        await sleep(200);
        rolledBackAt = performance.now();
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await counting).toBe(0);
    expect(countedAt).toBeGreaterThan(rolledBackAt);
  });

  it("keeps a client's statements out of the owner's open transaction", async () => {
    const client = connect();
    await client`select 1`;
    let counting: Promise<number> | undefined;
    await owner
      .transaction(async (tx) => {
        await tx.query("insert into notes values ('uncommitted')");
        counting = client<{ n: number }[]>`select count(*)::int as n from notes`.then((rows) => rows[0]!.n);
        await sleep(200);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await counting).toBe(0);
  });

  it('lets several clients run transactions at once, each whole', async () => {
    const writers = [connect(), connect(), connect()];
    await Promise.all(
      writers.map((client, index) =>
        client.begin(async (tx) => {
          for (let row = 0; row < 5; row++) {
            await tx`insert into notes values (${`client ${index}`})`;
            await sleep(5);
          }
          const [mine] = await tx<{ n: number }[]>`select count(*)::int as n from notes where body = ${`client ${index}`}`;
          expect(mine!.n).toBe(5);
        }),
      ),
    );
    expect((await owner.query<{ n: number }>('select count(*)::int as n from notes')).rows[0]!.n).toBe(15);
  });

  it('rolls back what a client left open when it went away, and lets the owner go on', async () => {
    const client = connect();
    await client`begin`;
    await client`insert into notes values ('left open')`;
    await client.end({ timeout: 0 });
    const result = await owner.query<{ n: number }>('select count(*)::int as n from notes');
    expect(result.rows[0]!.n).toBe(0);
    expect(owner.isInTransaction()).toBe(false);
  });

  it('stops with a client mid-transaction: closing waits until its work is rolled back', async () => {
    const client = connect();
    await client`begin`;
    await client`insert into notes values ('left open')`;
    await shared.close();
    expect(fs.existsSync(socketPath)).toBe(false);
    expect(owner.isInTransaction()).toBe(false);
    expect((await owner.query<{ n: number }>('select count(*)::int as n from notes')).rows[0]!.n).toBe(0);
    shared = await serveEmbeddedDatabase(owner, socketPath, (channel) => heard(channel));
  });

  it("tells the owner of a notification a client's transaction raised, and answers the commit once the owner has acted on it (issue 32, point 9)", async () => {
    // PGlite's own listeners never hear it: the client's answers bypass them.
    const ownListener: string[] = [];
    const stop = await owner.listen('credentials_changed', (payload) => ownListener.push(payload));
    const events: string[] = [];
    heard = async (channel) => {
      events.push(`heard ${channel}`);
      await sleep(150);
      events.push('acted');
    };
    try {
      const client = connect();
      await client.begin(async (tx) => {
        await tx`insert into notes values ('a change')`;
        await tx`select pg_notify('credentials_changed', '')`;
        expect(events).toEqual([]);
      });
      events.push('committed');
      expect(events).toEqual(['heard credentials_changed', 'acted', 'committed']);
      // Rolled back: nothing to tell.
      await client.begin(async (tx) => {
        await tx`select pg_notify('credentials_changed', '')`;
        throw new Error('roll back');
      }).catch(() => {});
      await client`select 1`;
      expect(events).toEqual(['heard credentials_changed', 'acted', 'committed']);
      expect(ownListener).toEqual([]);
    } finally {
      heard = async () => {};
      await stop();
    }
  });

  it('answers a large result whole: 1.5 MB, more than the socket takes at once', async () => {
    const client = connect();
    const rows = await client<{ n: number; body: string }[]>`select n, repeat(chr(65 + n % 26), 3000) as body from generate_series(1, 500) as n`;
    expect(rows).toHaveLength(500);
    expect(rows.every((row) => row.body === String.fromCharCode(65 + (row.n % 26)).repeat(3000))).toBe(true);
  });
});
