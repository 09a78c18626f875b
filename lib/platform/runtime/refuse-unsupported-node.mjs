// Imported first by every entry point (server.mjs, the CLI): a process on an unsupported Node.js
// stops here, with one clear line, before any library that may need a newer runtime loads.
import { unsupportedNodeMessage } from './supported-node.mjs';

const refusal = unsupportedNodeMessage();
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
