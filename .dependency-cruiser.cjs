// The layer ladder of the code (lib/README.md explains each rung). Each rung may import only the
// rungs below it; `npm run lint:layers` checks every import (type-only ones too) against these
// rules. .dependency-cruiser-known-violations.json would list arrows let through for a while; it is
// empty, and CI fails on any arrow not in it.

const folders = (...names) => `^(${names.map((n) => n.replace(/[.]/g, '\\.')).join('|')})(/|$)`;

// Each rung is a folder of lib/ (lib/README.md); the platform also counts the database client.
const platform = folders(
  'lib/platform', 'db/advisory-lock.ts', 'db/client.ts', 'db/compiled-statement.ts', 'db/embedded-lock.ts',
  'db/embedded-share.ts', 'db/migrate.ts',
);
// Table definitions are the floor under the floor: the database client types itself with them.
const schema = folders('db/schema');
const contract = folders('lib/contract');
const sources = folders('lib/sources');
// Clients of outside parties that are not lookup sources (FEL certifiers): beside the sources, apart from them.
const providers = folders('lib/providers');
// The product's nouns in Spanish (lookups, sources, outcomes, movements, refusals): every rung above names them alike.
const vocabulary = folders('lib/vocabulary');
const core = folders('lib/core');
// Console and portal identity (sign-in, users, passwords, second factor) is a flow like the others.
const flows = folders('lib/flows');
const presentation = folders('lib/presentation');
const reactions = folders('lib/reactions');
const surfaces = folders('lib/surfaces', 'app', 'components', 'cli');
// cli/main.ts starts the CLI's process as lib/root/startup.ts starts the server's.
const root = folders('lib/root', 'cli/main.ts', 'proxy.ts', 'server.mjs', 'instrumentation.ts');

// The pages that still read the core or the flows directly (scripts/surface-reads.mjs): a list that only shrinks.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- dependency-cruiser loads its configuration as CommonJS.
const { knownList, listedPathPatterns } = require('./scripts/surface-reads.mjs');
const pagesReadingDirectly = listedPathPatterns(knownList());

const mayNotReach = (name, from, comment, ...above) => ({
  name,
  comment,
  severity: 'error',
  // A root file inside a surface's folder (cli/main.ts) is the root's, not the surface's.
  from: { path: from, pathNot: root },
  to: { path: above.join('|'), dependencyTypesNot: ['npm', 'npm-dev', 'core'] },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one: neither can be read, tested or moved without the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    mayNotReach('platform-is-the-floor', platform,
      'The platform (settings, logging, HTTP, paging, the database client) knows nothing of the product.',
      contract, sources, providers, vocabulary, core, flows, presentation, reactions, surfaces, root),
    mayNotReach('schema-imports-no-lib', schema,
      'Table definitions are data: they import drizzle and each other, nothing of lib/.',
      '^lib/', surfaces, root),
    mayNotReach('contract-below-the-domain', contract,
      'The public contract (schemas, messages, identifiers) is what the domain answers in, not the other way round.',
      sources, providers, vocabulary, core, flows, presentation, reactions, surfaces, root),
    mayNotReach('sources-see-no-domain', sources,
      'Upstream clients touch no database and no domain: they emit events (onStateChange) and whoever cares subscribes at start-up.',
      '^db/', providers, vocabulary, core, flows, presentation, reactions, surfaces, root),
    mayNotReach('providers-see-only-the-platform', providers,
      'Clients of outside parties (certifiers, later payment providers) speak their protocol over the platform; what their answers mean to the business is decided above them.',
      '^db/', contract, sources, vocabulary, core, flows, presentation, reactions, surfaces, root),
    mayNotReach('vocabulary-names-no-domain', vocabulary,
      'The nouns are words only: the domain names things with them, they import none of it.',
      core, flows, presentation, reactions, surfaces, root),
    mayNotReach('core-below-flows', core,
      'The core (integrations, money, records, audit) is used by the flows; it calls no flow, word or reaction.',
      flows, presentation, reactions, surfaces, root),
    mayNotReach('flows-emit-not-react', flows,
      'A flow emits an event; the words and the reactions (alerts, notices) subscribe to it.',
      presentation, reactions, surfaces, root),
    mayNotReach('presentation-below-reactions', presentation,
      'Words and labels format the domain; they send nothing and render no page.',
      reactions, surfaces, root),
    mayNotReach('reactions-below-surfaces', reactions,
      'Alerts and notices react to events; no page or route is theirs to import.',
      surfaces, root),
    mayNotReach('surfaces-below-the-root', surfaces,
      'Only the composition root starts things and wires reactions to events.',
      root),
    ...[
      // components/console is the look both signed-in surfaces share, so it belongs to neither.
      ['console', folders('lib/surfaces/console', 'app/admin')],
      ['portal', folders('lib/surfaces/portal', 'app/portal')],
      ['api', folders('lib/surfaces/api', 'app/api')],
    ].flatMap(([name, path], _, all) =>
      all.filter(([other]) => other !== name).map(([other, otherPath]) => ({
        name: `${name}-apart-from-${other}`,
        comment: `Each kind of caller has its own wrappers and view models: the ${name} surface does not import the ${other} one.`,
        severity: 'error',
        from: { path },
        to: { path: otherPath },
      })),
    ),
    {
      name: 'pages-read-through-their-surface',
      comment:
        'A page reads and changes data through its surface\'s view models and actions (lib/surfaces/console for app/admin, lib/surfaces/portal for app/portal), never the core or the flows directly; types may be named. The pages that still do are listed in .surface-reads-known.json, which only shrinks.',
      severity: 'error',
      from: { path: '^app/(admin|portal)/', pathNot: pagesReadingDirectly },
      to: { path: '^lib/(core|flows)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'components-take-props-not-surfaces',
      comment:
        'Shared components are the look the signed-in surfaces share: what a page shows comes to them as props, and a component that needs one surface\'s view models or paths belongs beside its pages (app/admin/(console)/_components).',
      severity: 'error',
      from: { path: '^components/' },
      to: { path: '^lib/surfaces/' },
    },
    {
      name: 'components-are-not-pages',
      comment: 'Shared components are used by pages; they never import a page, a layout or a route.',
      severity: 'error',
      from: { path: '^components/' },
      to: { path: '^app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests, benches and e2e specs may reach anywhere; the ladder is about the product's code.
    exclude: { path: '(^|/)(node_modules|\\.next[^/]*|e2e|tests|bench|scripts|db/migrations)/|\\.test\\.tsx?$|^cli/bundle\\.mjs$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.mjs', '.js', '.d.mts'],
    },
  },
};
