import { describe, expect, it } from 'vitest';
import { addressAllowed, compileAllowList, parseAllowList, parseAllowListEntry } from './allow-list';

describe('IP allow-list entries', () => {
  it('accepts IPv4 and IPv6 addresses and CIDR ranges, in canonical form', () => {
    expect(parseAllowListEntry(' 203.0.113.7 ')).toEqual({ ok: true, entry: '203.0.113.7' });
    expect(parseAllowListEntry('198.51.100.0/24')).toEqual({ ok: true, entry: '198.51.100.0/24' });
    expect(parseAllowListEntry('2001:DB8:0:0::1')).toEqual({ ok: true, entry: '2001:db8::1' });
    expect(parseAllowListEntry('2001:db8::/32')).toEqual({ ok: true, entry: '2001:db8::/32' });
    expect(parseAllowListEntry('0.0.0.0/0')).toEqual({ ok: true, entry: '0.0.0.0/0' });
  });

  it('refuses what is not an address or a range, saying why', () => {
    for (const typed of ['12345', '0x7f.1', '203.0.113', '203.0.113.256', 'example.com', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/8', '10.0.0.0/', 'fe80::1%eth0']) {
      const parsed = parseAllowListEntry(typed);
      expect(parsed.ok, typed).toBe(false);
    }
    expect(parseAllowListEntry('198.51.100.7/24')).toEqual({ ok: false, problem: { code: 'bits_past_prefix', typed: '198.51.100.7/24', bits: 24, network: '198.51.100.0' } });
  });

  it('reads a whole list separated by commas, spaces or lines, without duplicates, and reports every problem', () => {
    expect(parseAllowList('203.0.113.7, 198.51.100.0/24\n2001:db8::/32 203.0.113.7')).toEqual({ ok: true, entries: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'] });
    expect(parseAllowList('')).toEqual({ ok: true, entries: [] });
    const wrong = parseAllowList('203.0.113.7, nada, 10.0.0.1/40');
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.problems).toHaveLength(2);
  });
});

describe('matching a client address', () => {
  const networks = compileAllowList(['203.0.113.7', '198.51.100.0/24', '2001:db8::/32']);

  it('allows every address when the list is empty', () => {
    expect(addressAllowed([], '192.0.2.1')).toBe(true);
    expect(addressAllowed([], null)).toBe(true);
  });

  it('allows addresses inside an entry, IPv4 mapped into IPv6 as IPv4, and nothing else', () => {
    expect(addressAllowed(networks, '203.0.113.7')).toBe(true);
    expect(addressAllowed(networks, '203.0.113.8')).toBe(false);
    expect(addressAllowed(networks, '198.51.100.255')).toBe(true);
    expect(addressAllowed(networks, '198.51.101.0')).toBe(false);
    expect(addressAllowed(networks, '::ffff:198.51.100.9')).toBe(true);
    expect(addressAllowed(networks, '2001:db8:ffff::1')).toBe(true);
    expect(addressAllowed(networks, '2001:db9::1')).toBe(false);
    // An address that cannot be read is allowed by no list.
    expect(addressAllowed(networks, null)).toBe(false);
    expect(addressAllowed(networks, 'unknown')).toBe(false);
  });
});
