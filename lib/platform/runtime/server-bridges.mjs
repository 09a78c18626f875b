// The channels between server.mjs (and its lib/root/server modules, outside the app's bundle) and
// the app Next loads: each a global slot under a registered symbol, since the two do not share
// module instances. Declared here, once, so every side imports its channel by name and the
// layer lint sees who writes and who reads it; `npm run lint` refuses a `Symbol.for('gateway.…')`
// written anywhere else.
export const SERVER_BRIDGES = Object.freeze({
  /** Set by server.mjs: the app was started by it, which records the socket's address (lib/core/limits/client-ip.ts). */
  serverWrapper: Symbol.for('gateway.serverWrapper'),
  /** Set by the drain (lib/root/server/drain.mjs); read by the app's readiness (lib/platform/operations/draining.ts). */
  draining: Symbol.for('gateway.draining'),
  /** The app's pieces to flush before the process exits (lib/platform/runtime/flush-before-exit.ts); run by the drain. */
  flushBeforeExit: Symbol.for('gateway.flushBeforeExit'),
  /** The process's long-lived state, every piece named (lib/platform/runtime/process-state.ts). */
  processState: Symbol.for('gateway.processState'),
  /** The probes' answers the app keeps current (lib/platform/operations/probe-answers.ts); served by lib/root/server/probes.mjs. */
  probeAnswers: Symbol.for('gateway.probeAnswers'),
  /** The five lookups' answerers, registered by their routes (lib/surfaces/api/direct-lookups.ts); called by server.mjs. */
  directLookups: Symbol.for('gateway.directLookups'),
  /** The lookups' paths, published by the app at start (lib/surfaces/api/direct-lookups.ts), which server.mjs has Next load. */
  lookupPaths: Symbol.for('gateway.lookupPaths'),
  /** Who a page request comes from (lib/root/server/page-callers.ts); the page turns key callers by it. */
  pageCallerKey: Symbol.for('gateway.pageCallerKey'),
  /** The public pages' cached answers (lib/surfaces/public-pages/cache.ts), written by the page turns. */
  publicPageAnswerer: Symbol.for('gateway.publicPageAnswerer'),
  /** The token the cache's own renders carry, so the page turns let them through (lib/surfaces/public-pages/cache.ts). */
  publicPageRenderToken: Symbol.for('gateway.publicPageRenderToken'),
});
