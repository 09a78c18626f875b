import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, issueToken, tokenMatches } from './tokens';

describe('integration tokens', () => {
  it('issues a tlk_ token with 256 random bits, its SHA-256 and a short display prefix', () => {
    const issued = issueToken();
    expect(issued.token).toMatch(/^tlk_[A-Za-z0-9_-]{43}$/);
    expect(issued.tokenHash).toBe(createHash('sha256').update(issued.token).digest('hex'));
    expect(issued.tokenPrefix).toBe(issued.token.slice(0, 10));
    expect(issued.tokenHash).not.toContain(issued.token.slice(4));
  });

  it('never issues the same token twice', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => issueToken().token));
    expect(tokens.size).toBe(200);
  });

  it('accepts the token whose hash is stored and nothing else', () => {
    const { token, tokenHash } = issueToken();
    expect(tokenMatches(token, tokenHash)).toBe(true);
    expect(tokenMatches(issueToken().token, tokenHash)).toBe(false);
    expect(tokenMatches(`${token}x`, tokenHash)).toBe(false);
    expect(tokenMatches(token.slice(0, -1), tokenHash)).toBe(false);
    expect(tokenMatches('', tokenHash)).toBe(false);
    // The hash itself is not a credential.
    expect(tokenMatches(tokenHash, tokenHash)).toBe(false);
  });

  it('refuses (without throwing) when the stored hash is malformed', () => {
    const { token } = issueToken();
    expect(tokenMatches(token, '')).toBe(false);
    expect(tokenMatches(token, 'abc')).toBe(false);
    expect(tokenMatches(token, hashToken(token).slice(0, 62))).toBe(false);
  });
});
