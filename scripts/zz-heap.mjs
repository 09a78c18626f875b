import fs from 'node:fs';
const snap = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const m = snap.snapshot.meta; const nf = m.node_fields.length; const types = m.node_types[0];
const N = snap.nodes, S = snap.strings;
const iType = m.node_fields.indexOf('type'), iName = m.node_fields.indexOf('name'), iSize = m.node_fields.indexOf('self_size');
const rows = [];
for (let i = 0; i < N.length; i += nf) {
  const t = types[N[i + iType]];
  if (t === 'string' || t === 'concatenated string' || t === 'sliced string') rows.push([N[i + iSize], S[N[i + iName]]]);
}
rows.sort((a, b) => b[0] - a[0]);
let total = rows.reduce((a, r) => a + r[0], 0);
console.log('total', (total / 1048576).toFixed(1), 'MiB', rows.length);
for (const [size, name] of rows.slice(0, 25)) console.log((size / 1024).toFixed(0).padStart(6), 'KiB', JSON.stringify(name.slice(0, 100)));
// bucket by size
const buckets = {}; for (const [s] of rows) { const b = s > 65536 ? '>64K' : s > 4096 ? '4K-64K' : s > 256 ? '256-4K' : '<256'; buckets[b] = (buckets[b] || 0) + s; }
console.log(Object.fromEntries(Object.entries(buckets).map(([k, v]) => [k, (v / 1048576).toFixed(1)])));
const byContent = new Map();
for (const [size, name] of rows) if (size > 4096) { const k = name; const e = byContent.get(k) || [0, 0]; e[0]++; e[1] = size; byContent.set(k, e); }
let extra = 0; for (const [k, [n, s]] of byContent) if (n > 1) { extra += (n - 1) * s; console.log('dup', n, (s/1024).toFixed(0), 'KiB', JSON.stringify(k.slice(0, 80))); }
console.log('extra copies', (extra / 1048576).toFixed(2), 'MiB');
