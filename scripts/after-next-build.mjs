// What `npm run build` runs on Next's output after `next build`, so that an instance holds less of
// its code in memory (docs/performance.md, "What an instance's memory is made of"): the server
// chunks rewritten in Latin-1, then each chunk written several times kept once.
//
//   node scripts/after-next-build.mjs [distDir]     (defaults to NEXT_DIST_DIR, else .next)
import { latin1ServerCode } from './latin1-server-code.mjs';
import { shareServerChunkCopies } from './server-chunk-copies.mjs';

const distDir = process.argv[2] ?? process.env.NEXT_DIST_DIR ?? '.next';
const MiB = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const latin1 = latin1ServerCode(distDir);
console.log(
  `after next build: ${latin1.rewritten} server chunk(s) of ${distDir} rewritten in Latin-1 (${MiB(latin1.savedBytes)} MiB of source held in one byte a character, not two)` +
    (latin1.leftTwoByte.length > 0 ? `; left as they were (a tagged template's text): ${latin1.leftTwoByte.join(', ')}` : ''),
);
const copies = shareServerChunkCopies(distDir);
console.log(`after next build: ${copies.linked} copies of server chunks linked to their first (${MiB(copies.savedBytes)} MiB not loaded again)`);
