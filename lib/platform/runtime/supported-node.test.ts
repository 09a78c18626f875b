// The runtime the gateway accepts, and what the runtime it runs on gives it.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { asyncContextFrameEnabled, SUPPORTED_NODE_RANGE, unsupportedNodeMessage } from './supported-node.mjs';

describe('the supported Node.js', () => {
  it('refuses Node.js 20 (past its end of life) and any line other than 24 LTS, naming both versions', () => {
    expect(unsupportedNodeMessage('20.20.2')).toBe(
      'cannot start: this is Node.js v20.20.2, and the gateway runs only on Node.js ^24.11.0 (a supported LTS line; ' +
        'package.json "engines"). `npm install` puts the pinned runtime in node_modules, and `npm start`, `npm run dev`, ' +
        '`npm test` and `npm run cli` run on it; to start server.mjs by hand, use `node_modules/.bin/node` or a Node.js of that range.',
    );
    expect(unsupportedNodeMessage('22.23.0')).toContain('this is Node.js v22.23.0');
    expect(unsupportedNodeMessage('24.10.0')).toContain('this is Node.js v24.10.0'); // 24 before it became LTS
    expect(unsupportedNodeMessage('25.9.0')).toContain('this is Node.js v25.9.0'); // an odd line is never LTS
  });

  it('accepts the 24 LTS releases', () => {
    expect(SUPPORTED_NODE_RANGE).toBe('^24.11.0');
    expect(unsupportedNodeMessage('24.11.0')).toBeUndefined();
    expect(unsupportedNodeMessage('24.21.0')).toBeUndefined();
  });

  it('is what the tests themselves run on: npm puts the pinned runtime first on the PATH', () => {
    expect(unsupportedNodeMessage()).toBeUndefined();
    expect(process.version).toMatch(/^v24\./);
  });

  it('gives AsyncLocalStorage on AsyncContextFrame, and the check tells it from the async-hooks implementation', () => {
    expect(asyncContextFrameEnabled()).toBe(true);
    const withAsyncHooks = spawnSync(
      process.execPath,
      ['--no-async-context-frame', '--input-type=module', '-e', "import { asyncContextFrameEnabled } from './lib/platform/runtime/supported-node.mjs'; console.log(asyncContextFrameEnabled())"],
      { encoding: 'utf8' },
    );
    expect(withAsyncHooks.stdout.trim()).toBe('false');
  });
});
