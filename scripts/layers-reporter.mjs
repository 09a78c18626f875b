// dependency-cruiser reporter for `npm run lint:layers`: prints each arrow that breaks a layer rule
// and is not in the known-violations baseline, then checks folders for cycles. Two folders that
// import each other, even through others, are one folder in all but name; the arrows that already
// close such a loop are listed in .folder-cycles-known.json, and any other arrow closing one fails.
import fs from 'node:fs';
import path from 'node:path';

const KNOWN_FOLDER_ARROWS = path.resolve('.folder-cycles-known.json');

// The rungs of lib/ (lib/README.md): those that hold folders, and those that are one folder.
export const RUNGS_OF_FOLDERS = ['platform', 'providers', 'core', 'flows', 'reactions', 'surfaces', 'root'];
export const RUNGS_IN_ONE_FOLDER = ['contract', 'sources', 'vocabulary', 'presentation'];

// lib/<rung>/<name> or lib/<one-folder rung>, db/schema, db, app/<first segment>,
// components/<first segment>, cli, or a file of its own at the top (server.mjs, proxy.ts). A file
// loose in a rung of folders (lib/platform/money.ts) counts as the rung's own directory, as a plain
// count of directories would: a loop through it is a loop.
export function folderOf(file) {
  const parts = file.split('/');
  if (parts[0] === 'lib' && RUNGS_OF_FOLDERS.includes(parts[1])) return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
  if (parts[0] === 'lib' || parts[0] === 'components') return parts.length > 2 ? `${parts[0]}/${parts[1]}` : file;
  if (parts[0] === 'db') return parts[1] === 'schema' ? 'db/schema' : 'db';
  if (parts[0] === 'app') return parts.length > 2 ? `app/${parts[1]}` : 'app';
  if (parts[0] === 'cli') return 'cli';
  return file;
}

function stronglyConnected(edges) {
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), groups = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next); low.set(node, next); next += 1;
    stack.push(node); onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) { visit(to); low.set(node, Math.min(low.get(node), low.get(to))); }
      else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do { member = stack.pop(); onStack.delete(member); group.push(member); } while (member !== node);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** The arrows between folders that lie on a cycle, each with one import that makes it. */
export function folderArrowsOnCycles(modules) {
  const edges = new Map();
  const example = new Map();
  for (const cruised of modules) {
    const from = folderOf(cruised.source);
    for (const dependency of cruised.dependencies) {
      if (dependency.coreModule || dependency.couldNotResolve || dependency.resolved.includes('node_modules/')) continue;
      const to = folderOf(dependency.resolved);
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
      if (!example.has(`${from} → ${to}`)) example.set(`${from} → ${to}`, `${cruised.source} → ${dependency.resolved}`);
    }
  }
  const arrows = new Map();
  for (const group of stronglyConnected(edges)) {
    const members = new Set(group);
    for (const from of group) {
      for (const to of edges.get(from) ?? []) {
        if (members.has(to)) arrows.set(`${from} → ${to}`, example.get(`${from} → ${to}`));
      }
    }
  }
  return arrows;
}

export default function layersReport(result) {
  const lines = [];
  const broken = result.summary.violations.filter((violation) => violation.rule.severity !== 'ignore');
  for (const violation of broken) {
    const via = violation.cycle ? violation.cycle.map((step) => step.name ?? step).join(' → ') : violation.to;
    lines.push(`✗ ${violation.rule.name}: ${violation.from} → ${via}`);
  }
  // A file of lib/ outside every rung would escape the rules: the tree is the ladder.
  let unplaced = 0;
  for (const cruised of result.modules) {
    const [top, rung] = cruised.source.split('/');
    if (top === 'lib' && !RUNGS_OF_FOLDERS.includes(rung) && !RUNGS_IN_ONE_FOLDER.includes(rung)) {
      unplaced += 1;
      lines.push(`✗ ${cruised.source} is on no rung: lib/ holds only ${[...RUNGS_OF_FOLDERS, ...RUNGS_IN_ONE_FOLDER].join(', ')} (lib/README.md)`);
    }
  }
  const arrows = folderArrowsOnCycles(result.modules);
  const known = new Set(fs.existsSync(KNOWN_FOLDER_ARROWS) ? JSON.parse(fs.readFileSync(KNOWN_FOLDER_ARROWS, 'utf8')) : []);
  const newArrows = [...arrows].filter(([arrow]) => !known.has(arrow));
  for (const [arrow, example] of newArrows) {
    lines.push(`✗ folder cycle: ${arrow} closes a loop between folders (for instance ${example})`);
  }
  const gone = [...known].filter((arrow) => !arrows.has(arrow)).length;
  lines.push(
    `layers: ${result.summary.totalCruised} modules; ${broken.length} new arrow(s) against the ladder, ` +
      `${result.summary.ignore} known (.dependency-cruiser-known-violations.json); ` +
      `${arrows.size} folder arrow(s) on cycles, ${arrows.size - newArrows.length} known (.folder-cycles-known.json)` +
      (gone > 0 ? `; ${gone} known folder arrow(s) are gone: remove them from the file` : ''),
  );
  const failed = broken.length > 0 || newArrows.length > 0 || unplaced > 0;
  if (failed) {
    lines.push('Each rule says why in .dependency-cruiser.cjs; the ladder is in lib/README.md. Move the code to the rung it belongs on, or emit an event and subscribe in lib/root/startup.ts.');
  }
  return { output: `${lines.join('\n')}\n`, exitCode: failed ? 1 : 0 };
}
