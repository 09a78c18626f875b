import { describe, expect, it } from 'vitest';
import { clientAddress, clientIp, clientKey } from './client-ip';

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

describe('clientKey: one key per client as the limits count them', () => {
  it('counts every address of an IPv6 /64 as one client', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:abcd', '[2001:db8:1:2::7]:443'].map((address) =>
      clientKey(address, 64),
    );
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(clientKey('2001:db8:1:3::1', 64)).toBe('2001:db8:1:3::/64');
  });

  it('uses the configured prefix length', () => {
    expect(clientKey('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientKey('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1/128');
  });

  it('counts an IPv4 address mapped into IPv6 as that IPv4 address', () => {
    expect(clientKey('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107', 64)).toBe('203.0.113.7');
    expect(clientIp('::ffff:203.0.113.7', null, 0)).toBe(clientIp('203.0.113.7', null, 0));
  });

  it('reads addresses with ports or zones as proxies write them, and puts anything else in one shared bucket', () => {
    expect(clientKey('203.0.113.7:51234', 64)).toBe('203.0.113.7');
    expect(clientKey('fe80::1%eth0', 64)).toBe('fe80::/64');
    for (const garbage of ['unknown', 'garbage', '12345', '0x7f.1', '1.2.3', '999.1.1.1', '']) expect(clientKey(garbage, 64)).toBe('unknown');
  });
});

describe('clientAddress (the allow-lists)', () => {
  it('is the whole address chosen as clientIp chooses it: an IPv6 address, not its network', () => {
    expect(clientAddress('2001:db8:1:2:3:4:5:6', null, 0)).toBe('2001:db8:1:2:3:4:5:6');
    expect(clientAddress('10.0.0.2', '198.51.100.1, 203.0.113.7', 1)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7', null, 0)).toBe('203.0.113.7');
    expect(clientAddress('[2001:db8::1]:443', null, 0)).toBe('2001:db8::1');
    expect(clientAddress(null, '203.0.113.7', 0)).toBeNull();
    expect(clientAddress('not-an-address', null, 0)).toBeNull();
  });
});
