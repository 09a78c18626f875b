// The offline verification scripts /docs shows are the files examples/constancias/ holds, which
// tests/constancias/constancias-api.test.ts runs against real receipts.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_VERIFICATION_SCRIPT, PYTHON_VERIFICATION_SCRIPT } from '@/app/docs/constancia-scripts';

describe('the verification scripts of /docs', () => {
  it('are examples/constancias/verificar.mjs and verificar.py, character for character, of 20-odd lines each', () => {
    expect(NODE_VERIFICATION_SCRIPT).toBe(fs.readFileSync('examples/constancias/verificar.mjs', 'utf8'));
    expect(PYTHON_VERIFICATION_SCRIPT).toBe(fs.readFileSync('examples/constancias/verificar.py', 'utf8'));
    for (const script of [NODE_VERIFICATION_SCRIPT, PYTHON_VERIFICATION_SCRIPT]) expect(script.trimEnd().split('\n').length).toBeLessThanOrEqual(30);
  });
});
