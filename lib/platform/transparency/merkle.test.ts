import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  EMPTY_ROOT,
  RootBuilder,
  alignedSubtrees,
  consistencyProof,
  hashUpToFoldedSubtree,
  inclusionProof,
  interiorHash,
  leafHash,
  nodeKeyString,
  nodesCompletedByAppending,
  nodesNeeded,
  rootAt,
  rootOfLeaves,
  verifyConsistency,
  verifyInclusion,
  withStoredNodes,
  type NodeKey,
  type NodeReader,
} from './merkle';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const unhex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));
const hexes = (list: readonly Uint8Array[]) => list.map(hex);

// An independent reference, written straight from RFC 6962 §2.1 over raw entries, with its own hashing.
const sha = (...parts: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return Uint8Array.from(hash.digest());
};
const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
const naiveRoot = (d: readonly Uint8Array[]): Uint8Array => {
  if (d.length === 0) return sha();
  if (d.length === 1) return sha(Uint8Array.of(0), d[0]!);
  const k = split(d.length);
  return sha(Uint8Array.of(1), naiveRoot(d.slice(0, k)), naiveRoot(d.slice(k)));
};
const naivePath = (m: number, d: readonly Uint8Array[]): Uint8Array[] => {
  if (d.length === 1) return [];
  const k = split(d.length);
  return m < k
    ? [...naivePath(m, d.slice(0, k)), naiveRoot(d.slice(k))]
    : [...naivePath(m - k, d.slice(k)), naiveRoot(d.slice(0, k))];
};
const naiveSubproof = (m: number, d: readonly Uint8Array[], b: boolean): Uint8Array[] => {
  const n = d.length;
  if (m === n) return b ? [] : [naiveRoot(d)];
  const k = split(n);
  return m <= k
    ? [...naiveSubproof(m, d.slice(0, k), b), naiveRoot(d.slice(k))]
    : [...naiveSubproof(m - k, d.slice(k), false), naiveRoot(d.slice(0, k))];
};

/** Distinct entries, so that no two leaves share a hash. */
const entries = (n: number) => Array.from({ length: n }, (_, i) => new TextEncoder().encode(`entry ${i}`));

/** A store filled by nodesCompletedByAppending, in the given batch sizes. */
function buildStore(leafHashes: readonly Uint8Array[], batches: readonly number[] = [leafHashes.length]) {
  const nodes = new Map<string, Uint8Array>();
  const read: NodeReader = (level, position) => {
    const hash = nodes.get(nodeKeyString(level, position));
    if (hash === undefined) throw new Error(`unknown node ${nodeKeyString(level, position)}`);
    return hash;
  };
  let size = 0;
  let batchIndex = 0;
  while (size < leafHashes.length) {
    const take = Math.max(1, batches[batchIndex++ % Math.max(1, batches.length)] ?? 1);
    const batch = leafHashes.slice(size, size + take);
    for (const node of nodesCompletedByAppending(size, batch, read)) {
      const key = nodeKeyString(node.level, node.position);
      if (nodes.has(key)) throw new Error(`node ${key} created twice`);
      nodes.set(key, node.hash);
    }
    size += batch.length;
  }
  return { nodes, read };
}

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[at % copy.length]! ^= 0x01;
  return copy;
}

const N = 300;
const ENTRIES = entries(N);
const LEAVES = ENTRIES.map(leafHash);
const STORE = buildStore(LEAVES, [1, 3, 7, 2, 16, 5]);
const ROOTS = Array.from({ length: N + 1 }, (_, size) => rootOfLeaves(LEAVES.slice(0, size)));

// RFC 6962 test data as used by certificate-transparency-go and trillian (merkle/testonly).
const CT_INPUTS = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(unhex);
const CT_LEAF_HASHES = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
  '0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7',
  '07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7',
  'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
  '4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658',
  'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
  '46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1',
];
const CT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
// (0-based leaf index, tree size, proof).
const CT_INCLUSION: Array<[number, number, string[]]> = [
  [0, 1, []],
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];
// (old size, new size, proof).
const CT_CONSISTENCY: Array<[number, number, string[]]> = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 5, ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b']],
];

describe('RFC 6962 known answers', () => {
  const ctLeaves = CT_INPUTS.map(leafHash);
  const ctStore = buildStore(ctLeaves, [3, 1, 4]);

  it('hashes the empty tree, the leaves and interior nodes as the RFC defines', () => {
    expect(hex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hexes(ctLeaves)).toEqual(CT_LEAF_HASHES);
    expect(hex(interiorHash(ctLeaves[0]!, ctLeaves[1]!))).toBe('fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125');
  });

  it.each(CT_ROOTS.map((root, i) => [i + 1, root] as const))('has the root of size %i', (size, root) => {
    expect(hex(rootOfLeaves(ctLeaves.slice(0, size)))).toBe(root);
    expect(hex(rootAt(size, ctStore.read))).toBe(root);
    expect(hex(naiveRoot(CT_INPUTS.slice(0, size)))).toBe(root);
  });

  it.each(CT_INCLUSION)('proves leaf %i in size %i', (index, size, proof) => {
    expect(hexes(inclusionProof(index, size, ctStore.read))).toEqual(proof);
    expect(hexes(naivePath(index, CT_INPUTS.slice(0, size)))).toEqual(proof);
    const root = unhex(CT_ROOTS[size - 1]!);
    expect(verifyInclusion({ leafHash: ctLeaves[index]!, index, size, proof: proof.map(unhex), root })).toBe(true);
  });

  it.each(CT_CONSISTENCY)('proves size %i consistent with size %i', (oldSize, newSize, proof) => {
    expect(hexes(consistencyProof(oldSize, newSize, ctStore.read))).toEqual(proof);
    expect(hexes(naiveSubproof(oldSize, CT_INPUTS.slice(0, newSize), true))).toEqual(proof);
    const oldRoot = unhex(CT_ROOTS[oldSize - 1]!);
    const newRoot = unhex(CT_ROOTS[newSize - 1]!);
    expect(verifyConsistency({ oldSize, newSize, proof: proof.map(unhex), oldRoot, newRoot })).toBe(true);
  });
});

describe('stored perfect subtrees', () => {
  it('stores exactly the perfect subtrees, whatever the batch sizes, each with its MTH', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: N }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }), (size, batches) => {
        const { nodes } = buildStore(LEAVES.slice(0, size), batches);
        const expected = new Set<string>();
        for (let level = 0; 2 ** level <= size; level++) {
          for (let position = 0; (position + 1) * 2 ** level <= size; position++) expected.add(nodeKeyString(level, position));
        }
        expect(new Set(nodes.keys())).toEqual(expected);
        for (const [key, hash] of nodes) {
          const [level, position] = key.split(':').map(Number) as [number, number];
          expect(hex(hash)).toBe(hex(naiveRoot(ENTRIES.slice(position * 2 ** level, (position + 1) * 2 ** level))));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('reads only older left siblings when appending', () => {
    // 5 leaves then 3 more: leaf 5 completes (1,2) with leaf 4, leaf 7 completes (1,3), (2,1) and (3,0).
    const keys = nodesNeeded((read) => nodesCompletedByAppending(5, LEAVES.slice(5, 8), read));
    expect(keys).toEqual([
      { level: 0, position: 4 },
      { level: 2, position: 0 },
    ]);
  });

  it('computes every root from stored nodes, equal to the MTH of the leaves', () => {
    for (let size = 0; size <= N; size++) {
      expect(hex(rootAt(size, STORE.read))).toBe(hex(ROOTS[size]!));
    }
    for (const size of [0, 1, 2, 3, 7, 8, 100, 255, 256, 257, 300]) {
      expect(hex(ROOTS[size]!)).toBe(hex(naiveRoot(ENTRIES.slice(0, size))));
    }
  });

  it('reads one node per set bit of the size for a root', () => {
    expect(nodesNeeded((read) => rootAt(0b1011_0110, read))).toEqual([
      { level: 7, position: 0 },
      { level: 5, position: 4 },
      { level: 4, position: 10 },
      { level: 2, position: 44 },
      { level: 1, position: 90 },
    ]);
  });

  it('rejects a reader that lacks a node', () => {
    expect(() => rootAt(3, () => {
      throw new Error('unknown');
    })).toThrow('unknown');
  });
});

describe('a window of leaves checked against the root (the sequencer\'s audit)', () => {
  it('covers any window with perfect subtrees, each the MTH of its leaves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: N }), fc.integer({ min: 0, max: N }), (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const subtrees = alignedSubtrees(start, end);
        // Contiguous, from the window's first leaf to its last.
        expect(subtrees.reduce((at, subtree) => (subtree.from === at ? subtree.to : Number.NaN), start)).toBe(end);
        for (const subtree of subtrees) {
          expect(subtree.to - subtree.from).toBe(2 ** subtree.level);
          expect(subtree.from % 2 ** subtree.level).toBe(0);
          expect(hex(STORE.read(subtree.level, subtree.position))).toBe(hex(naiveRoot(ENTRIES.slice(subtree.from, subtree.to))));
        }
      }),
      { numRuns: 200 },
    );
    // A window of 2^16 leaves from a multiple of it is one subtree.
    expect(alignedSubtrees(65_536 * 3, 65_536 * 4)).toEqual([{ level: 16, position: 3, from: 196_608, to: 262_144 }]);
  });

  it('hashes a subtree up to the one the root folds, and tells a changed leaf from the stored one', () => {
    for (const size of [1, 2, 3, 5, 8, 13, 64, 100, 257, 300]) {
      for (const subtree of alignedSubtrees(0, size)) {
        for (let level = subtree.level; level >= 0; level--) {
          // Every perfect subtree inside it, hashed up, reaches the stored folded subtree.
          const width = 2 ** (subtree.level - level);
          for (let offset = 0; offset < width; offset++) {
            const position = subtree.position * width + offset;
            const folded = hashUpToFoldedSubtree({ level, position, hash: STORE.read(level, position) }, size, STORE.read);
            expect(folded).toMatchObject({ level: subtree.level, position: subtree.position });
            expect(hex(folded.hash)).toBe(hex(STORE.read(subtree.level, subtree.position)));
            const changed = hashUpToFoldedSubtree({ level, position, hash: leafHash(new TextEncoder().encode('rewritten')) }, size, STORE.read);
            expect(hex(changed.hash)).not.toBe(hex(folded.hash));
          }
        }
      }
    }
  });
});

describe('inclusion proofs', () => {
  it('matches the reference PATH for every leaf of every size up to 64, and verifies', () => {
    for (let size = 1; size <= 64; size++) {
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(index, size, STORE.read);
        expect(hexes(proof)).toEqual(hexes(naivePath(index, ENTRIES.slice(0, size))));
        expect(verifyInclusion({ leafHash: LEAVES[index]!, index, size, proof, root: ROOTS[size]! })).toBe(true);
      }
    }
  });

  it('verifies every leaf of every size up to 300 against rootOfLeaves', () => {
    for (let size = 1; size <= N; size++) {
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(index, size, STORE.read);
        if (!verifyInclusion({ leafHash: LEAVES[index]!, index, size, proof, root: ROOTS[size]! })) {
          throw new Error(`leaf ${index} of ${size} did not verify`);
        }
      }
    }
  });

  const indexAndSize = fc.integer({ min: 1, max: N }).chain((size) => fc.tuple(fc.integer({ min: 0, max: size - 1 }), fc.constant(size)));

  it('fails when any byte of the proof, the leaf or the root is altered', () => {
    fc.assert(
      fc.property(indexAndSize, fc.nat(), ([index, size], at) => {
        const proof = inclusionProof(index, size, STORE.read);
        const root = ROOTS[size]!;
        const leaf = LEAVES[index]!;
        for (let element = 0; element < proof.length; element++) {
          for (const byte of [at % 32, 0, 31]) {
            const altered = proof.map((hash, i) => (i === element ? flipped(hash, byte) : hash));
            expect(verifyInclusion({ leafHash: leaf, index, size, proof: altered, root })).toBe(false);
          }
        }
        expect(verifyInclusion({ leafHash: flipped(leaf, at), index, size, proof, root })).toBe(false);
        expect(verifyInclusion({ leafHash: leaf, index, size, proof, root: flipped(root, at) })).toBe(false);
        expect(verifyInclusion({ leafHash: LEAVES[(index + 1) % N]!, index, size, proof, root })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('fails for another index, or another size with that size\'s root', () => {
    fc.assert(
      fc.property(indexAndSize, fc.integer({ min: 1, max: N }), fc.nat(N), ([index, size], otherSize, otherIndex) => {
        const proof = inclusionProof(index, size, STORE.read);
        const leaf = LEAVES[index]!;
        if (otherIndex !== index) {
          expect(verifyInclusion({ leafHash: leaf, index: otherIndex, size, proof, root: ROOTS[size]! })).toBe(false);
        }
        if (otherSize !== size) {
          expect(verifyInclusion({ leafHash: leaf, index, size: otherSize, proof, root: ROOTS[otherSize]! })).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('fails when a proof runs past the claimed tree (step 4a)', () => {
    // Leaf 1 of a two-leaf tree, claimed as the only leaf of a one-leaf tree: without step 4a, hashing on would reach the two-leaf root.
    expect(verifyInclusion({ leafHash: LEAVES[1]!, index: 1, size: 2, proof: [LEAVES[0]!], root: ROOTS[2]! })).toBe(true);
    expect(verifyInclusion({ leafHash: LEAVES[1]!, index: 0, size: 1, proof: [LEAVES[0]!], root: ROOTS[2]! })).toBe(false);
    const proof = inclusionProof(5, 8, STORE.read);
    expect(verifyInclusion({ leafHash: LEAVES[5]!, index: 5, size: 6, proof, root: ROOTS[8]! })).toBe(false);
  });

  it('fails for a proof one element too long or too short', () => {
    for (const [index, size] of [[0, 1], [0, 2], [3, 7], [5, 8], [100, 300], [299, 300]] as const) {
      const proof = inclusionProof(index, size, STORE.read);
      const root = ROOTS[size]!;
      expect(verifyInclusion({ leafHash: LEAVES[index]!, index, size, proof: [...proof, LEAVES[0]!], root })).toBe(false);
      if (proof.length > 0) {
        expect(verifyInclusion({ leafHash: LEAVES[index]!, index, size, proof: proof.slice(0, -1), root })).toBe(false);
      }
    }
  });

  it('fails for an index outside the tree, a bad size or a hash of the wrong length', () => {
    const proof = inclusionProof(2, 5, STORE.read);
    const good = { leafHash: LEAVES[2]!, index: 2, size: 5, proof, root: ROOTS[5]! };
    expect(verifyInclusion(good)).toBe(true);
    expect(verifyInclusion({ ...good, index: 5 })).toBe(false);
    expect(verifyInclusion({ ...good, index: 7 })).toBe(false);
    expect(verifyInclusion({ ...good, index: -1 })).toBe(false);
    expect(verifyInclusion({ ...good, index: 2.5 })).toBe(false);
    expect(verifyInclusion({ ...good, size: 0 })).toBe(false);
    expect(verifyInclusion({ ...good, size: Number.NaN })).toBe(false);
    expect(verifyInclusion({ ...good, leafHash: LEAVES[2]!.slice(0, 31) })).toBe(false);
    expect(verifyInclusion({ ...good, root: new Uint8Array([...ROOTS[5]!, 0]) })).toBe(false);
    expect(verifyInclusion({ ...good, proof: [proof[0]!.slice(1), ...proof.slice(1)] })).toBe(false);
    expect(() => inclusionProof(5, 5, STORE.read)).toThrow(RangeError);
    expect(() => inclusionProof(-1, 5, STORE.read)).toThrow(RangeError);
  });

  it('reads O(log n) nodes in a tree of a million leaves', () => {
    for (const size of [1_000_000, 2 ** 20 - 1, 2 ** 20 + 1]) {
      const bound = 2 * Math.log2(size);
      for (const index of [0, 1, 2, 4095, 500_000, 524_287, 524_288, 999_999, size - 2, size - 1]) {
        const keys = nodesNeeded((read) => inclusionProof(index, size, read));
        expect(keys.length).toBeLessThanOrEqual(bound);
        for (const { level, position } of keys) expect((position + 1) * 2 ** level).toBeLessThanOrEqual(size);
      }
    }
  });
});

describe('consistency proofs', () => {
  it('matches the reference SUBPROOF for every pair of sizes up to 64, and verifies', () => {
    for (let newSize = 1; newSize <= 64; newSize++) {
      for (let oldSize = 1; oldSize <= newSize; oldSize++) {
        const proof = consistencyProof(oldSize, newSize, STORE.read);
        expect(hexes(proof)).toEqual(hexes(naiveSubproof(oldSize, ENTRIES.slice(0, newSize), true)));
        expect(verifyConsistency({ oldSize, newSize, proof, oldRoot: ROOTS[oldSize]!, newRoot: ROOTS[newSize]! })).toBe(true);
      }
    }
  });

  it('verifies every pair of sizes up to 300 against rootOfLeaves', () => {
    for (let newSize = 0; newSize <= N; newSize++) {
      for (let oldSize = 0; oldSize <= newSize; oldSize++) {
        const proof = consistencyProof(oldSize, newSize, STORE.read);
        if (!verifyConsistency({ oldSize, newSize, proof, oldRoot: ROOTS[oldSize]!, newRoot: ROOTS[newSize]! })) {
          throw new Error(`${oldSize} to ${newSize} did not verify`);
        }
      }
    }
  });

  const sizes = fc.integer({ min: 2, max: N }).chain((newSize) => fc.tuple(fc.integer({ min: 1, max: newSize - 1 }), fc.constant(newSize)));

  it('fails when any byte of the proof or either root is altered', () => {
    fc.assert(
      fc.property(sizes, fc.nat(), ([oldSize, newSize], at) => {
        const proof = consistencyProof(oldSize, newSize, STORE.read);
        const oldRoot = ROOTS[oldSize]!;
        const newRoot = ROOTS[newSize]!;
        for (let element = 0; element < proof.length; element++) {
          for (const byte of [at % 32, 0, 31]) {
            const altered = proof.map((hash, i) => (i === element ? flipped(hash, byte) : hash));
            expect(verifyConsistency({ oldSize, newSize, proof: altered, oldRoot, newRoot })).toBe(false);
          }
        }
        expect(verifyConsistency({ oldSize, newSize, proof, oldRoot: flipped(oldRoot, at), newRoot })).toBe(false);
        expect(verifyConsistency({ oldSize, newSize, proof, oldRoot, newRoot: flipped(newRoot, at) })).toBe(false);
        expect(verifyConsistency({ oldSize, newSize, proof: [...proof, proof[0]!], oldRoot, newRoot })).toBe(false);
        expect(verifyConsistency({ oldSize, newSize, proof: proof.slice(0, -1), oldRoot, newRoot })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('fails for other sizes with those sizes\' roots', () => {
    fc.assert(
      fc.property(sizes, fc.integer({ min: 1, max: N }), fc.integer({ min: 1, max: N }), ([oldSize, newSize], otherOld, otherNew) => {
        const proof = consistencyProof(oldSize, newSize, STORE.read);
        if (otherOld !== oldSize) {
          expect(verifyConsistency({ oldSize: otherOld, newSize, proof, oldRoot: ROOTS[otherOld]!, newRoot: ROOTS[newSize]! })).toBe(false);
        }
        if (otherNew !== newSize) {
          expect(verifyConsistency({ oldSize, newSize: otherNew, proof, oldRoot: ROOTS[oldSize]!, newRoot: ROOTS[otherNew]! })).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('fails for reversed sizes, an empty old tree with a proof, unequal roots of equal sizes, or a missing proof', () => {
    const proof = consistencyProof(3, 7, STORE.read);
    expect(verifyConsistency({ oldSize: 7, newSize: 3, proof, oldRoot: ROOTS[7]!, newRoot: ROOTS[3]! })).toBe(false);
    expect(verifyConsistency({ oldSize: 0, newSize: 7, proof: [], oldRoot: EMPTY_ROOT, newRoot: ROOTS[7]! })).toBe(true);
    expect(verifyConsistency({ oldSize: 0, newSize: 7, proof, oldRoot: EMPTY_ROOT, newRoot: ROOTS[7]! })).toBe(false);
    expect(verifyConsistency({ oldSize: 0, newSize: 7, proof: [], oldRoot: ROOTS[1]!, newRoot: ROOTS[7]! })).toBe(false);
    expect(verifyConsistency({ oldSize: 7, newSize: 7, proof: [], oldRoot: ROOTS[7]!, newRoot: ROOTS[7]! })).toBe(true);
    expect(verifyConsistency({ oldSize: 7, newSize: 7, proof: [], oldRoot: ROOTS[7]!, newRoot: ROOTS[6]! })).toBe(false);
    expect(verifyConsistency({ oldSize: 7, newSize: 7, proof: [ROOTS[7]!], oldRoot: ROOTS[7]!, newRoot: ROOTS[7]! })).toBe(false);
    expect(verifyConsistency({ oldSize: 3, newSize: 7, proof: [], oldRoot: ROOTS[3]!, newRoot: ROOTS[7]! })).toBe(false);
    expect(verifyConsistency({ oldSize: 4, newSize: 8, proof: [], oldRoot: ROOTS[4]!, newRoot: ROOTS[8]! })).toBe(false);
    expect(verifyConsistency({ oldSize: 3, newSize: 7, proof: proof.map((hash) => hash.slice(1)), oldRoot: ROOTS[3]!, newRoot: ROOTS[7]! })).toBe(false);
    expect(verifyConsistency({ oldSize: -1, newSize: 7, proof: [], oldRoot: EMPTY_ROOT, newRoot: ROOTS[7]! })).toBe(false);
    expect(() => consistencyProof(8, 7, STORE.read)).toThrow(RangeError);
    expect(consistencyProof(0, 7, STORE.read)).toEqual([]);
    expect(consistencyProof(7, 7, STORE.read)).toEqual([]);
  });

  it('fails when a proof stops short of the claimed new size (step 7, sn is 0)', () => {
    // The proof of 2 to 4, claimed as 2 to 8 with size 4's root: the hashes match but the path is too short.
    const proof = consistencyProof(2, 4, STORE.read);
    expect(verifyConsistency({ oldSize: 2, newSize: 4, proof, oldRoot: ROOTS[2]!, newRoot: ROOTS[4]! })).toBe(true);
    expect(verifyConsistency({ oldSize: 2, newSize: 8, proof, oldRoot: ROOTS[2]!, newRoot: ROOTS[4]! })).toBe(false);
  });

  it('reads O(log n) nodes in a tree of a million leaves', () => {
    const newSize = 1_000_000;
    for (const oldSize of [1, 2, 3, 1000, 65_535, 65_536, 524_287, 524_288, 524_289, 777_777, 999_999]) {
      const keys = nodesNeeded((read) => consistencyProof(oldSize, newSize, read));
      expect(keys.length).toBeLessThanOrEqual(2 * Math.log2(newSize));
      for (const { level, position } of keys) expect((position + 1) * 2 ** level).toBeLessThanOrEqual(newSize);
    }
  });
});

describe('withStoredNodes', () => {
  it('fetches every node once, in one call, and gives the same answer as direct reads', async () => {
    const fetch = vi.fn(async (keys: NodeKey[]) => new Map(keys.map(({ level, position }) => [nodeKeyString(level, position), STORE.read(level, position)])));
    const proof = await withStoredNodes((read) => consistencyProof(37, 250, read), fetch);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(hexes(proof)).toEqual(hexes(consistencyProof(37, 250, STORE.read)));
    const keys = fetch.mock.calls[0]![0];
    expect(new Set(keys.map((key) => nodeKeyString(key.level, key.position))).size).toBe(keys.length);

    const root = await withStoredNodes((read) => rootAt(123, read), fetch);
    expect(hex(root)).toBe(hex(ROOTS[123]!));
  });

  it('rejects when the fetch leaves a node out', async () => {
    await expect(withStoredNodes((read) => inclusionProof(3, 9, read), async () => new Map())).rejects.toThrow('was not fetched');
  });
});

describe('RootBuilder', () => {
  it('equals rootOfLeaves after every push, for sizes 0 to 300', () => {
    const builder = new RootBuilder();
    expect(builder.size).toBe(0);
    expect(hex(builder.root())).toBe(hex(EMPTY_ROOT));
    LEAVES.forEach((leaf, i) => {
      builder.push(leaf);
      expect(builder.size).toBe(i + 1);
      expect(hex(builder.root())).toBe(hex(ROOTS[i + 1]!));
    });
  });

  it('refuses a leaf hash of the wrong length', () => {
    expect(() => new RootBuilder().push(new Uint8Array(31))).toThrow(RangeError);
  });
});
