// The credential cache's bounds, with a reader the test controls (when reads answer, fail or hang)
// and a clock it moves by hand.
import { describe, expect, it } from 'vitest';
import type { Integration } from '@/db/schema';
import { hashToken, issueToken } from '@/lib/security/tokens';
import { IntegrationDirectory, TRUSTED_FOR_INTERVALS, type IntegrationReader } from './directory';

const REFRESH_MS = 1_000;

function row(token: string, changes: Partial<Integration> = {}): Integration {
  const now = new Date();
  return {
    id: 7,
    nombre: 'acme',
    tokenHash: hashToken(token),
    tokenPrefix: token.slice(0, 10),
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
  const state = { rows: [] as Integration[], failing: false, hanging: false, reads: 0 };
  const answer = <T>(value: () => T): Promise<T> => {
    state.reads++;
    if (state.hanging) return new Promise<T>(() => {});
    return state.failing ? Promise.reject(new Error('connection refused')) : Promise.resolve(value());
  };
  const reader: IntegrationReader = {
    all: () => answer(() => [...state.rows]),
    one: (name) => answer(() => state.rows.find((candidate) => candidate.nombre.toLowerCase() === name)),
  };
  return { state, reader };
}

/** A directory whose copy holds one active integration with `token`, loaded and used once. */
async function warmDirectory(token: string) {
  const { state, reader } = scriptedReader();
  state.rows = [row(token)];
  const clock = { now: 1_000_000 };
  const directory = new IntegrationDirectory(reader, { refreshMs: REFRESH_MS, readDeadlineMs: 50, now: () => clock.now });
  expect((await directory.authenticate('acme', token)).status).toBe('authenticated');
  // Let the first reload finish.
  await new Promise((resolve) => setTimeout(resolve, 10));
  return { state, reader, directory, clock };
}

describe('IntegrationDirectory bounds', () => {
  it('trusts its copy for 3 intervals while reloads fail, then checks the database for every lookup', async () => {
    const { token } = issueToken();
    const { state, directory, clock } = await warmDirectory(token);

    // The database stops answering reloads; meanwhile the integration is deactivated there.
    state.failing = true;
    state.rows = [row(token, { active: false })];
    clock.now += TRUSTED_FOR_INTERVALS * REFRESH_MS;
    expect((await directory.authenticate('acme', token)).status).toBe('authenticated');

    clock.now += 1;
    // Past the bound the copy is not used: the database is asked, and its failure is the answer.
    await expect(directory.authenticate('acme', token)).rejects.toThrow('connection refused');
    state.failing = false;
    expect((await directory.authenticate('acme', token)).status).toBe('unknown');
  });

  it('keeps what a single-row read found: a rotated token works and the old one stops at once', async () => {
    const { token: oldToken } = issueToken();
    const { token: newToken } = issueToken();
    const { state, directory } = await warmDirectory(oldToken);
    state.rows = [row(newToken)];
    expect((await directory.authenticate('acme', newToken)).status).toBe('authenticated');
    const reads = state.reads;
    expect((await directory.authenticate('acme', newToken)).status).toBe('authenticated');
    expect(state.reads).toBe(reads);
    // The old token now meets the new row: checked against the database, and refused.
    expect((await directory.authenticate('acme', oldToken)).status).toBe('unknown');
  });

  it('fails a lookup rather than trusting an old copy when the database hangs', async () => {
    const { token } = issueToken();
    const { state, directory, clock } = await warmDirectory(token);
    state.hanging = true;
    clock.now += TRUSTED_FOR_INTERVALS * REFRESH_MS + 1;
    await expect(directory.authenticate('acme', token)).rejects.toThrow(/no answer from the database within 50 ms/);
  });

  it('does not let the answer of a slow single-row read replace a newer reload', async () => {
    const { token: oldToken } = issueToken();
    const { token: newToken } = issueToken();
    const { state, reader, directory } = await warmDirectory(oldToken);

    // A lookup with a token the copy does not know reads the row; that read is slow and returns
    // what the row was before the integration was deactivated.
    let answerSlowRead: (value: Integration) => void = () => {};
    const slowRead = new Promise<Integration>((resolve) => (answerSlowRead = resolve));
    const one = reader.one;
    reader.one = () => slowRead;
    const pending = directory.authenticate('acme', newToken);
    reader.one = one;

    // Meanwhile the integration is deactivated and this process reloads.
    state.rows = [row(oldToken, { active: false })];
    await directory.invalidate();
    answerSlowRead(row(oldToken));
    expect((await pending).status).toBe('unknown');

    // The old row's answer did not replace the newer reload's.
    expect((await directory.authenticate('acme', oldToken)).status).toBe('unknown');
  });
});
