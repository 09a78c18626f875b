// An append-only Merkle log per RFC 9162 (Certificate Transparency 2.0) section 2.1. The log is kept
// as the hashes of its perfect subtrees, so roots and proofs for any past size need O(log n) reads,
// and the reads depend only on sizes and indices, never on hash values.
import { createHash } from 'node:crypto';

/** Length in bytes of every hash in the log (SHA-256). */
export const HASH_LENGTH = 32;

/** A perfect subtree: node (level L, position p) covers leaves [p·2^L, (p+1)·2^L). */
export type NodeKey = { level: number; position: number };

/** Returns the stored hash of a perfect subtree; throws when the node is unknown. */
export type NodeReader = (level: number, position: number) => Uint8Array;

function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  // A plain Uint8Array rather than a Buffer, so callers compare and serialise one kind of value.
  return Uint8Array.from(hash.digest());
}

const LEAF_PREFIX = Uint8Array.of(0x00);
const INTERIOR_PREFIX = Uint8Array.of(0x01);

/** MTH of the empty list: SHA-256 of the empty string (RFC 9162 §2.1.1). */
export const EMPTY_ROOT: Uint8Array = sha256();

/** MTH({d(0)}) = HASH(0x00 || d(0)). */
export function leafHash(entry: Uint8Array): Uint8Array {
  return sha256(LEAF_PREFIX, entry);
}

/** HASH(0x01 || MTH(left) || MTH(right)). */
export function interiorHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(INTERIOR_PREFIX, left, right);
}

/** `${level}:${position}`, the key of the map `withStoredNodes` expects from its fetch. */
export function nodeKeyString(level: number, position: number): string {
  return `${level}:${position}`;
}

function isSize(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

function requireSize(name: string, n: number): void {
  if (!isSize(n)) throw new RangeError(`${name} must be a non-negative safe integer, got ${n}`);
}

function requireHash(name: string, hash: Uint8Array): void {
  if (!(hash instanceof Uint8Array) || hash.length !== HASH_LENGTH) {
    throw new RangeError(`${name} must be a ${HASH_LENGTH}-byte hash`);
  }
}

/** The largest power of two strictly smaller than n (n ≥ 2), the split point k of RFC 9162. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && splitPoint(n + 1) === n;
}

function log2Exact(n: number): number {
  let level = 0;
  for (let width = 1; width < n; width *= 2) level++;
  return level;
}

/** MTH over leaf hashes that are already computed, split at the largest power of two below n. */
export function rootOfLeaves(leafHashes: readonly Uint8Array[]): Uint8Array {
  if (leafHashes.length === 0) return EMPTY_ROOT;
  return rangeHash(0, leafHashes.length, (level, position) => {
    if (level !== 0) throw new Error('rootOfLeaves reads leaves only');
    const hash = leafHashes[position];
    if (hash === undefined) throw new RangeError(`no leaf ${position}`);
    return hash;
  }, true);
}

/**
 * MTH of leaves [start, end), read from stored perfect subtrees. The RFC's ranges start at a multiple
 * of their split point, so each is a perfect node or splits into one perfect node and a smaller range.
 * `leavesOnly` descends to the leaves instead (used by rootOfLeaves, which has no stored interiors).
 */
function rangeHash(start: number, end: number, read: NodeReader, leavesOnly = false): Uint8Array {
  const width = end - start;
  if (width <= 0) throw new RangeError(`empty range [${start}, ${end})`);
  if (width === 1) return read(0, start);
  if (!leavesOnly && isPowerOfTwo(width) && start % width === 0) return read(log2Exact(width), start / width);
  const k = splitPoint(width);
  return interiorHash(rangeHash(start, start + k, read, leavesOnly), rangeHash(start + k, end, read, leavesOnly));
}

/**
 * Every node to store after appending leaves to a log of `size` leaves: the new leaves (level 0) and
 * each perfect subtree they complete. Left siblings older than the batch are read through `read`.
 */
export function nodesCompletedByAppending(
  size: number,
  newLeafHashes: readonly Uint8Array[],
  read: NodeReader,
): Array<NodeKey & { hash: Uint8Array }> {
  requireSize('size', size);
  const created: Array<NodeKey & { hash: Uint8Array }> = [];
  const fresh = new Map<string, Uint8Array>();
  const lookup = (level: number, position: number) => fresh.get(nodeKeyString(level, position)) ?? read(level, position);
  newLeafHashes.forEach((leaf, offset) => {
    requireHash('leaf hash', leaf);
    let level = 0;
    let position = size + offset;
    let hash = leaf;
    for (;;) {
      created.push({ level, position, hash });
      fresh.set(nodeKeyString(level, position), hash);
      // A right child completes its parent; a left child waits for a sibling.
      if (position % 2 === 0) break;
      hash = interiorHash(lookup(level, position - 1), hash);
      level += 1;
      position = (position - 1) / 2;
    }
  });
  return created;
}

/** MTH of the first `size` leaves: the perfect subtrees of size's binary decomposition, folded right to left. */
export function rootAt(size: number, read: NodeReader): Uint8Array {
  requireSize('size', size);
  return size === 0 ? EMPTY_ROOT : rangeHash(0, size, read);
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1 for leaf `index` in the tree of `size` leaves. */
export function inclusionProof(index: number, size: number, read: NodeReader): Uint8Array[] {
  requireSize('size', size);
  if (!Number.isSafeInteger(index) || index < 0 || index >= size) {
    throw new RangeError(`leaf index ${index} is outside a tree of ${size} leaves`);
  }
  const proof: Uint8Array[] = [];
  // PATH(m, D[start:start+n]), with the sibling hashes appended after the deeper ones.
  const path = (m: number, start: number, n: number): void => {
    if (n === 1) return;
    const k = splitPoint(n);
    if (m < k) {
      path(m, start, k);
      proof.push(rangeHash(start + k, start + n, read));
    } else {
      path(m - k, start + k, n - k);
      proof.push(rangeHash(start, start + k, read));
    }
  };
  path(index, 0, size);
  return proof;
}

/** PROOF(m, D[n]) = SUBPROOF(m, D[n], true) of RFC 9162 §2.1.4.1; empty when oldSize is 0 or equals newSize. */
export function consistencyProof(oldSize: number, newSize: number, read: NodeReader): Uint8Array[] {
  requireSize('oldSize', oldSize);
  requireSize('newSize', newSize);
  if (oldSize > newSize) throw new RangeError(`old size ${oldSize} exceeds new size ${newSize}`);
  if (oldSize === 0 || oldSize === newSize) return [];
  const proof: Uint8Array[] = [];
  // SUBPROOF(m, D[start:start+n], b).
  const subproof = (m: number, start: number, n: number, b: boolean): void => {
    if (m === n) {
      if (!b) proof.push(rangeHash(start, start + n, read));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      subproof(m, start, k, b);
      proof.push(rangeHash(start + k, start + n, read));
    } else {
      subproof(m - k, start + k, n - k, false);
      proof.push(rangeHash(start, start + k, read));
    }
  };
  subproof(oldSize, 0, newSize, true);
  return proof;
}

const ZERO_HASH = new Uint8Array(HASH_LENGTH);

/** The keys `compute` reads, in first-asked order, found by running it with zero hashes. */
export function nodesNeeded<T>(compute: (read: NodeReader) => T): NodeKey[] {
  const keys: NodeKey[] = [];
  const seen = new Set<string>();
  compute((level, position) => {
    const key = nodeKeyString(level, position);
    if (!seen.has(key)) {
      seen.add(key);
      keys.push({ level, position });
    }
    return ZERO_HASH;
  });
  return keys;
}

/** Runs `compute` over nodes fetched in one batch: a dry run names them, `fetch` reads them, a second run uses them. */
export async function withStoredNodes<T>(
  compute: (read: NodeReader) => T,
  fetch: (keys: NodeKey[]) => Promise<Map<string, Uint8Array>>,
): Promise<T> {
  const nodes = await fetch(nodesNeeded(compute));
  return compute((level, position) => {
    const hash = nodes.get(nodeKeyString(level, position));
    if (hash === undefined) throw new Error(`node ${nodeKeyString(level, position)} was not fetched`);
    return hash;
  });
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

function wellFormed(hashes: readonly Uint8Array[]): boolean {
  return hashes.every((hash) => hash instanceof Uint8Array && hash.length === HASH_LENGTH);
}

function isOdd(n: number): boolean {
  return n % 2 === 1;
}

// Division instead of >>, so sizes past 2^31 keep working.
function shiftRight(n: number): number {
  return Math.floor(n / 2);
}

/** RFC 9162 §2.1.3.2: whether `proof` proves `leafHash` is leaf `index` of the tree of `size` leaves with `root`. */
export function verifyInclusion(input: {
  leafHash: Uint8Array;
  index: number;
  size: number;
  proof: readonly Uint8Array[];
  root: Uint8Array;
}): boolean {
  const { leafHash: hash, index, size, proof, root } = input;
  if (!isSize(index) || !isSize(size) || !wellFormed([hash, root, ...proof])) return false;
  // 1. If leaf_index is greater than or equal to tree_size, fail the proof verification.
  if (index >= size) return false;
  // 2. Set fn to leaf_index and sn to tree_size - 1.
  let fn = index;
  let sn = size - 1;
  // 3. Set r to hash.
  let r = hash;
  // 4. For each value p in the inclusion_path array:
  for (const p of proof) {
    // 4a. If sn is 0, stop the iteration and fail the proof verification.
    if (sn === 0) return false;
    // 4b. If LSB(fn) is set, or if fn is equal to sn, then:
    if (isOdd(fn) || fn === sn) {
      // 4b.i. Set r to HASH(0x01 || p || r).
      r = interiorHash(p, r);
      // 4b.ii. If LSB(fn) is not set, right-shift fn and sn equally until LSB(fn) is set or fn is 0.
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = shiftRight(fn);
          sn = shiftRight(sn);
        }
      }
    } else {
      // 4b, otherwise: i. Set r to HASH(0x01 || r || p).
      r = interiorHash(r, p);
    }
    // 4c. Finally, right-shift both fn and sn one time.
    fn = shiftRight(fn);
    sn = shiftRight(sn);
  }
  // 5. If sn is equal to 0 and r and the root_hash are equal, inclusion is proven; otherwise fail.
  return sn === 0 && bytesEqual(r, root);
}

/** RFC 9162 §2.1.4.2: whether `proof` shows the tree of newSize leaves with newRoot extends the one of oldSize with oldRoot. */
export function verifyConsistency(input: {
  oldSize: number;
  newSize: number;
  proof: readonly Uint8Array[];
  oldRoot: Uint8Array;
  newRoot: Uint8Array;
}): boolean {
  const { oldSize, newSize, proof, oldRoot, newRoot } = input;
  if (!isSize(oldSize) || !isSize(newSize) || !wellFormed([oldRoot, newRoot, ...proof])) return false;
  if (oldSize > newSize) return false;
  // The RFC's algorithm covers 0 < first < second; the empty tree and an unchanged tree need no proof.
  if (oldSize === 0) return proof.length === 0 && bytesEqual(oldRoot, EMPTY_ROOT);
  if (oldSize === newSize) return proof.length === 0 && bytesEqual(oldRoot, newRoot);
  // 1. If consistency_path is an empty array, stop and fail the proof verification.
  if (proof.length === 0) return false;
  // 2. If first is an exact power of 2, then prepend first_hash to the consistency_path array.
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  // 3. Set fn to first - 1 and sn to second - 1.
  let fn = oldSize - 1;
  let sn = newSize - 1;
  // 4. If LSB(fn) is set, then right-shift both fn and sn equally until LSB(fn) is not set.
  while (isOdd(fn)) {
    fn = shiftRight(fn);
    sn = shiftRight(sn);
  }
  // 5. Set both fr and sr to the first value in the consistency_path array.
  const [first, ...rest] = path;
  if (first === undefined) return false;
  let fr = first;
  let sr = first;
  // 6. For each subsequent value c in the consistency_path array:
  for (const c of rest) {
    // 6a. If sn is 0, then stop the iteration and fail the proof verification.
    if (sn === 0) return false;
    // 6b. If LSB(fn) is set, or if fn is equal to sn, then:
    if (isOdd(fn) || fn === sn) {
      // 6b.i. Set fr to HASH(0x01 || c || fr).
      fr = interiorHash(c, fr);
      // 6b.ii. Set sr to HASH(0x01 || c || sr).
      sr = interiorHash(c, sr);
      // 6b.iii. If LSB(fn) is not set, right-shift fn and sn equally until LSB(fn) is set or fn is 0.
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = shiftRight(fn);
          sn = shiftRight(sn);
        }
      }
    } else {
      // 6b, otherwise: i. Set sr to HASH(0x01 || sr || c).
      sr = interiorHash(sr, c);
    }
    // 6c. Finally, right-shift both fn and sn one time.
    fn = shiftRight(fn);
    sn = shiftRight(sn);
  }
  // 7. Verify that fr equals first_hash, that sr equals second_hash, and that sn is 0.
  return bytesEqual(fr, oldRoot) && bytesEqual(sr, newRoot) && sn === 0;
}

/**
 * Recomputes a root from leaf hashes streamed in order, keeping one hash per set bit of the size (the
 * frontier of perfect subtrees), so an audit can check a whole log without holding its leaves.
 */
export class RootBuilder {
  // frontier[i] covers a perfect subtree; levels strictly decrease from left to right.
  private readonly frontier: Array<{ level: number; hash: Uint8Array }> = [];
  private count = 0;

  push(leafHash: Uint8Array): void {
    requireHash('leaf hash', leafHash);
    let node = { level: 0, hash: leafHash };
    for (let last = this.frontier.at(-1); last !== undefined && last.level === node.level; last = this.frontier.at(-1)) {
      this.frontier.pop();
      node = { level: node.level + 1, hash: interiorHash(last.hash, node.hash) };
    }
    this.frontier.push(node);
    this.count += 1;
  }

  get size(): number {
    return this.count;
  }

  root(): Uint8Array {
    let root: Uint8Array | undefined;
    for (let i = this.frontier.length - 1; i >= 0; i--) {
      const node = this.frontier[i];
      if (node === undefined) continue;
      root = root === undefined ? node.hash : interiorHash(node.hash, root);
    }
    return root ?? EMPTY_ROOT;
  }
}

/**
 * The perfect subtrees that cover leaves [start, end), left to right, each as large as its start's
 * alignment and the range allow: what an audit of part of a log recomputes from its leaves.
 */
export function alignedSubtrees(start: number, end: number): Array<NodeKey & { from: number; to: number }> {
  requireSize('start', start);
  requireSize('end', end);
  const subtrees: Array<NodeKey & { from: number; to: number }> = [];
  for (let from = start; from < end; ) {
    let level = 0;
    while (from % 2 ** (level + 1) === 0 && from + 2 ** (level + 1) <= end) level += 1;
    subtrees.push({ level, position: from / 2 ** level, from, to: from + 2 ** level });
    from += 2 ** level;
  }
  return subtrees;
}

/**
 * Hashes a perfect subtree of the tree of `size` leaves up to the largest perfect subtree holding it
 * (one of those `rootAt` folds), with its siblings read through `read`. Checked against that stored
 * subtree, a subtree recomputed from its leaves is proved part of the root.
 */
export function hashUpToFoldedSubtree(node: NodeKey & { hash: Uint8Array }, size: number, read: NodeReader): NodeKey & { hash: Uint8Array } {
  requireSize('size', size);
  let { level, position, hash } = node;
  // The parent is a perfect subtree of this tree while its leaves all are in it.
  while ((shiftRight(position) + 1) * 2 ** (level + 1) <= size) {
    hash = isOdd(position) ? interiorHash(read(level, position - 1), hash) : interiorHash(hash, read(level, position + 1));
    position = shiftRight(position);
    level += 1;
  }
  return { level, position, hash };
}
