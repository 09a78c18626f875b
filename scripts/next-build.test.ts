// The build the tests reuse is rebuilt when any file the app is built from changes: a folder
// named like a root-level tooling folder (app/docs, the /docs route) is still an input.
import { describe, expect, it } from 'vitest';
import { listBuildInputs } from './next-build';

describe('the inputs of the reused build', () => {
  it('include every route, app/docs too, and leave out tests, tooling and the documentation folder', () => {
    const inputs = listBuildInputs();
    expect(inputs).toEqual(expect.arrayContaining(['app/docs/page.tsx', 'app/docs/docs.css', 'lib/surfaces/openapi/document.ts', 'package.json']));
    expect(inputs.filter((file) => /^(docs|tests|e2e|scripts|bench|cli|deploy|node_modules|\.next)\//.test(file))).toEqual([]);
    expect(inputs.filter((file) => file.includes('/node_modules/') || file.endsWith('.test.ts'))).toEqual([]);
    // The image's build context filter is not read by next build.
    expect(inputs).not.toContain('.dockerignore');
  });
});
