// The credential cache's bounds, with a reader the test controls (when reads answer, fail or hang)
// and a clock it moves by hand.
import { describe, expect, it } from 'vitest';
import type { Integration } from '@/db/schema';
import { hashToken, issueToken } from '@/lib/platform/security/tokens';
import { IntegrationDirectory, type IntegrationReader, type StoredToken } from './directory';

const REFRESH_MS = 1_000;
const MAX_AGE_MS = 10_000;

interface Snapshot {
  integrations: Integration[];
  tokens: StoredToken[];
}

/** Integration #7 "acme" with `token` (and any further tokens) as the database would return it. */
function row(token: string, changes: Partial<Integration> = {}, tokens: Array<Partial<StoredToken> & { token: string }> = []): Snapshot {
  return {
    integrations: [integration(changes)],
    tokens: [{ token }, ...tokens].map((entry, index) => ({
      id: entry.id ?? index + 1,
      integrationId: 7,
      tokenHash: hashToken(entry.token),
      expiresAt: entry.expiresAt ?? null,
    })),
  };
}

function integration(changes: Partial<Integration>): Integration {
  const now = new Date();
  return {
    id: 7,
    nombre: 'acme',
    isRenapEnabled: true,
    isRtuEnabled: true,
    isCuiNitEnabled: true,
    isRtuV2Enabled: true,
    isOmisosEnabled: true,
    tariffCentavos: 0,
    balanceCentavos: 0,
    active: true,
    createdAt: now,
    updatedAt: now,
    ...changes,
  } as Integration;
}

/** A reader whose answers the test sets, or holds back (a hanging database). */
function scriptedReader() {
  const state = { rows: { integrations: [], tokens: [] } as Snapshot, failing: false, hanging: false, reads: 0 };
  const answer = <T>(value: () => T): Promise<T> => {
    state.reads++;
    if (state.hanging) return new Promise<T>(() => {});
    return state.failing ? Promise.reject(new Error('connection refused')) : Promise.resolve(value());
  };
  const reader: IntegrationReader = {
    all: () => answer(() => ({ integrations: [...state.rows.integrations], tokens: [...state.rows.tokens] })),
  };
  return { state, reader };
}

/** A directory whose copy holds one active integration with `token`, loaded and used once. */
async function warmDirectory(token: string) {
  const { state, reader } = scriptedReader();
  state.rows = row(token);
  const clock = { now: 1_000_000 };
  const directory = new IntegrationDirectory(reader, { refreshMs: REFRESH_MS, readDeadlineMs: 50, maxAgeMs: MAX_AGE_MS, now: () => clock.now });
  expect((await directory.authenticate('acme', token)).status).toBe('authenticated');
  // Let the first reload finish.
  await new Promise((resolve) => setTimeout(resolve, 10));
  return { state, reader, directory, clock };
}

describe('IntegrationDirectory', () => {
  it('answers every lookup from its copy, refused ones included: no database read per lookup', async () => {
    const { token } = issueToken();
    const { state, directory } = await warmDirectory(token);
    const reads = state.reads;
    for (let attempt = 0; attempt < 100; attempt++) {
      expect((await directory.authenticate('ACME', token)).status).toBe('authenticated');
      expect((await directory.authenticate('acme', issueToken().token)).status).toBe('unknown');
      expect((await directory.authenticate(`nobody-${attempt}`, token)).status).toBe('unknown');
    }
    expect(state.reads).toBe(reads);
  });

  it('takes a change made elsewhere (a new token, a deactivation) with its next reload', async () => {
    const { token: oldToken } = issueToken();
    const { token: newToken } = issueToken();
    const { state, directory } = await warmDirectory(oldToken);
    state.rows = row(newToken);
    // Until the copy is reloaded the change is not seen here (the refresh interval is the bound).
    expect((await directory.authenticate('acme', newToken)).status).toBe('unknown');
    await directory.invalidate();
    expect((await directory.authenticate('acme', newToken)).status).toBe('authenticated');
    expect((await directory.authenticate('acme', oldToken)).status).toBe('unknown');
    state.rows = row(newToken, { active: false });
    await directory.invalidate();
    expect((await directory.authenticate('acme', newToken)).status).toBe('unknown');
  });

  it('serves its copy while reloads fail or hang, up to its bound; past it answers unavailable until a reload succeeds', async () => {
    const { token } = issueToken();
    const { state, directory, clock } = await warmDirectory(token);

    // The database stops answering; meanwhile the integration is deactivated there.
    state.hanging = true;
    state.rows = row(token, { active: false });
    clock.now += MAX_AGE_MS;
    const reads = state.reads;
    expect((await directory.authenticate('acme', token)).status).toBe('authenticated');
    clock.now += 1;
    // Past the bound the copy is not used, and no lookup waits for the database either.
    expect(await directory.authenticate('acme', token)).toEqual({ status: 'unavailable' });
    expect(await directory.authenticate('acme', issueToken().token)).toEqual({ status: 'unavailable' });
    expect(state.reads).toBe(reads);

    state.hanging = false;
    await directory.invalidate();
    expect((await directory.authenticate('acme', token)).status).toBe('unknown');
  });

  it('makes the first lookups wait for one shared first load, and answers unavailable if it fails', async () => {
    const { token } = issueToken();
    const { state, reader } = scriptedReader();
    state.rows = row(token);
    const directory = new IntegrationDirectory(reader, { refreshMs: REFRESH_MS, readDeadlineMs: 50, maxAgeMs: MAX_AGE_MS });
    const answers = await Promise.all(Array.from({ length: 20 }, () => directory.authenticate('acme', token)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill('authenticated'));
    expect(state.reads).toBe(1);

    const failing = scriptedReader();
    failing.state.failing = true;
    const cold = new IntegrationDirectory(failing.reader, { refreshMs: REFRESH_MS, readDeadlineMs: 50, maxAgeMs: MAX_AGE_MS });
    expect(await cold.authenticate('acme', token)).toEqual({ status: 'unavailable' });
    failing.state.failing = false;
    failing.state.rows = row(token);
    expect((await cold.authenticate('acme', token)).status).toBe('authenticated');
  });

  it('does not let a slow reload replace a newer one', async () => {
    const { token } = issueToken();
    const { state, reader, directory } = await warmDirectory(token);

    // A reload starts and is slow; it will return the row as it was before the deactivation.
    let answerSlowRead: (rows: Snapshot) => void = () => {};
    const all = reader.all;
    reader.all = () => new Promise<Snapshot>((resolve) => (answerSlowRead = resolve));
    const slow = directory.invalidate();
    reader.all = all;

    // Meanwhile the integration is deactivated and this process reloads again.
    state.rows = row(token, { active: false });
    await directory.invalidate();
    answerSlowRead(row(token));
    await slow;
    expect((await directory.authenticate('acme', token)).status).toBe('unknown');
  });

  it('accepts each of an integration\'s tokens, and each only until its expiry, checked per lookup without a reload', async () => {
    const { token: first } = issueToken();
    const { token: ending } = issueToken();
    const { state, directory, clock } = await warmDirectory(first);
    state.rows = row(first, {}, [{ token: ending, expiresAt: new Date(clock.now + 5_000) }]);
    await directory.invalidate();
    const reads = state.reads;
    expect((await directory.authenticate('acme', first)).status).toBe('authenticated');
    expect((await directory.authenticate('acme', ending)).status).toBe('authenticated');
    clock.now += 4_999;
    expect((await directory.authenticate('acme', ending)).status).toBe('authenticated');
    clock.now += 1;
    expect((await directory.authenticate('acme', ending)).status).toBe('unknown');
    expect((await directory.authenticate('acme', first)).status).toBe('authenticated');
    expect(state.reads).toBe(reads);
  });

  it('reloads as soon as another process announces a change, and again when the channel reconnects', async () => {
    const { token } = issueToken();
    const { token: other } = issueToken();
    const { state, reader } = scriptedReader();
    state.rows = row(token, {}, [{ token: other }]);
    const announce: { change?: () => void; reconnect?: () => void } = {};
    reader.subscribe = async (onChange, onReconnect) => {
      announce.change = onChange;
      announce.reconnect = onReconnect;
      return true;
    };
    // A refresh interval far longer than the test: only the announcement can make it reload.
    const directory = new IntegrationDirectory(reader, { refreshMs: 3_600_000, readDeadlineMs: 50, maxAgeMs: 7_200_000 });
    expect((await directory.authenticate('acme', other)).status).toBe('authenticated');
    expect(announce.change).toBeDefined();

    // The second token is revoked elsewhere (revoked tokens are not read).
    state.rows = row(token);
    announce.change!();
    await eventually(async () => (await directory.authenticate('acme', other)).status === 'unknown');
    expect((await directory.authenticate('acme', token)).status).toBe('authenticated');

    // A change while the channel was down was missed: the reconnect reloads.
    state.rows = row(token, { active: false });
    announce.reconnect!();
    await eventually(async () => (await directory.authenticate('acme', token)).status === 'unknown');
  });

  it('settles an announcement once its copy has the change, also when it arrives during a reload (the CLI on the embedded database waits for it)', async () => {
    const { token } = issueToken();
    const { token: other } = issueToken();
    const { state, reader } = scriptedReader();
    state.rows = row(token, {}, [{ token: other }]);
    let announce!: () => Promise<void>;
    reader.subscribe = async (onChange) => {
      announce = onChange;
      return true;
    };
    const directory = new IntegrationDirectory(reader, { refreshMs: 3_600_000, readDeadlineMs: 1_000, maxAgeMs: 7_200_000 });
    await directory.start();

    state.rows = row(token);
    await announce();
    expect((await directory.authenticate('acme', other)).status).toBe('unknown');

    // A reload that read before the change is in flight: the announcement waits for the one after it.
    const all = reader.all;
    let answerSlowRead!: () => void;
    reader.all = () => {
      reader.all = all;
      const rows = all();
      return new Promise((resolve) => (answerSlowRead = () => resolve(rows)));
    };
    const inFlight = directory.invalidate();
    state.rows = row(token, { active: false });
    let settled = false;
    const announced = announce().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    answerSlowRead();
    await Promise.all([inFlight, announced]);
    expect((await directory.authenticate('acme', token)).status).toBe('unknown');
  });

  it('starts listening before its start load, so a change made once it is started is announced to it, with one load at start', async () => {
    const { token } = issueToken();
    const { state, reader } = scriptedReader();
    state.rows = row(token);
    const order: string[] = [];
    const all = reader.all;
    reader.all = () => {
      order.push('load');
      return all();
    };
    let openChannel!: () => void;
    reader.subscribe = (_onChange, onReconnect) =>
      new Promise((resolve) => {
        order.push('listen');
        openChannel = () => {
          // As postgres.js does: "listening" is reported when the channel opens.
          onReconnect();
          resolve(true);
        };
      });
    const directory = new IntegrationDirectory(reader, { refreshMs: 3_600_000, readDeadlineMs: 50, maxAgeMs: 7_200_000 });
    const started = directory.start();
    await eventually(async () => order.length > 0);
    // The load waits for the channel: a change committed meanwhile would be heard by no one.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual(['listen']);
    openChannel();
    await started;
    expect(order).toEqual(['listen', 'load']);
    expect(state.reads).toBe(1);
    expect((await directory.authenticate('acme', token)).status).toBe('authenticated');
  });

  it('refuses the right token from outside the integration\'s allow-list, from its copy (no read), and a wrong token as unknown whatever the address', async () => {
    const { token } = issueToken();
    const { state, directory } = await warmDirectory(token);
    state.rows = row(token, { allowedNetworks: ['203.0.113.0/24', '2001:db8::/32'] });
    await directory.invalidate();
    const reads = state.reads;
    expect((await directory.authenticate('acme', token, '203.0.113.9')).status).toBe('authenticated');
    expect((await directory.authenticate('acme', token, '2001:db8::7')).status).toBe('authenticated');
    expect(await directory.authenticate('acme', token, '198.51.100.1')).toEqual({ status: 'address_refused', integrationId: 7, address: '198.51.100.1' });
    expect(await directory.authenticate('acme', token, null)).toEqual({ status: 'address_refused', integrationId: 7, address: null });
    // A wrong token never learns about the allow-list.
    expect((await directory.authenticate('acme', issueToken().token, '198.51.100.1')).status).toBe('unknown');
    expect(state.reads).toBe(reads);
  });
});


async function eventually(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
