import { describe, expect, it } from 'vitest';
import { clientIp } from './client-ip';

describe('clientIp', () => {
  it('uses the socket peer and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientIp('203.0.113.7', '198.51.100.1', 0)).toBe('203.0.113.7');
    expect(clientIp('203.0.113.7', null, 0)).toBe('203.0.113.7');
  });

  it('behind one trusted proxy, takes the last X-Forwarded-For entry (the one the proxy wrote)', () => {
    expect(clientIp('10.0.0.2', '203.0.113.7', 1)).toBe('203.0.113.7');
    expect(clientIp('10.0.0.2', '198.51.100.1, 203.0.113.7', 1)).toBe('203.0.113.7');
  });

  it('ignores entries a client put further left to dodge the limit', () => {
    const spoofs = ['1.1.1.1', '1.1.1.1, 2.2.2.2', 'garbage, , 9.9.9.9'];
    for (const spoofed of spoofs) expect(clientIp('10.0.0.2', `${spoofed}, 203.0.113.7`, 1)).toBe('203.0.113.7');
  });

  it('behind two trusted proxies, takes the entry two hops back', () => {
    expect(clientIp('10.0.0.3', '6.6.6.6, 203.0.113.7, 10.0.0.2', 2)).toBe('203.0.113.7');
  });

  it('falls back to the furthest known address when the chain is shorter than the hops', () => {
    expect(clientIp('10.0.0.2', null, 1)).toBe('10.0.0.2');
    expect(clientIp('10.0.0.3', '203.0.113.7', 5)).toBe('203.0.113.7');
  });

  it('trims whitespace and names a missing peer "unknown"', () => {
    expect(clientIp('  203.0.113.7 ', null, 0)).toBe('203.0.113.7');
    expect(clientIp(null, null, 0)).toBe('unknown');
    expect(clientIp('', null, 0)).toBe('unknown');
  });
});
