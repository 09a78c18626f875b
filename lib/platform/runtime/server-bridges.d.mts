export declare const SERVER_BRIDGES: Readonly<{
  serverWrapper: symbol;
  draining: symbol;
  flushBeforeExit: symbol;
  processState: symbol;
  probeAnswers: symbol;
  directLookups: symbol;
  lookupPaths: symbol;
  pageCallerKey: symbol;
  publicPageAnswerer: symbol;
  publicPageRenderToken: symbol;
}>;
