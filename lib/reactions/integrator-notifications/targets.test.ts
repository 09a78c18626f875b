// The webhook target checks for integrators' URLs (issue 30, point 8): IPv6 transition addresses
// that carry a loopback or private IPv4 address, and host names written with the root's trailing dot.
import { describe, expect, it } from 'vitest';
import { checkedLookup, forbiddenAddressReason, webhookTargetProblem } from './targets';

const STRICT = { allowLocalTargets: false };

describe('an IPv6 address that carries an IPv4 address is checked as that IPv4 address', () => {
  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:0:127.0.0.1', 'SIIT (RFC 6145)'],
    ['::ffff:0:7f00:1', 'SIIT, written in hexadecimal'],
    ['64:ff9b::7f00:1', 'NAT64, well-known prefix'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b:1::7f00:1', 'NAT64, local-use prefix (RFC 8215)'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['2001:0:7f00:1::1', 'Teredo with a loopback server'],
    ['2001:0:5db8:c81::80ff:fffe', 'Teredo with a loopback client (127.0.0.1 inverted)'],
  ])('%s (%s) is refused', (address) => {
    expect(forbiddenAddressReason(address)).toBe(`la dirección ${address} es privada, local o reservada`);
  });

  it.each([
    ['2606:4700:4700::1111', 'a public IPv6 address'],
    ['2002:5db8:d822::1', '6to4 of the public 93.184.216.34'],
  ])('%s (%s) is allowed', (address) => {
    expect(forbiddenAddressReason(address)).toBeUndefined();
  });

  it('in a URL typed in the console, as at delivery', () => {
    for (const host of ['[::ffff:0:127.0.0.1]', '[64:ff9b:1::7f00:1]', '[2002:7f00:1::]', '[2001:0:7f00:1::1]']) {
      expect(webhookTargetProblem(`https://${host}/avisos`, STRICT)).toMatch(/es privada, local o reservada$/);
    }
  });
});

describe('a host name with the trailing dot of the DNS root', () => {
  it('is checked without it: localhost. and a single label are not public names', () => {
    expect(webhookTargetProblem('https://localhost./avisos', STRICT)).toBe('el nombre no es público');
    expect(webhookTargetProblem('https://LOCALHOST../avisos', STRICT)).toBe('el nombre no es público');
    expect(webhookTargetProblem('https://api.localhost./avisos', STRICT)).toBe('el nombre no es público');
    expect(webhookTargetProblem('https://intranet./avisos', STRICT)).toBe('el nombre no es público');
  });

  it('a public name with it is still allowed, and refused at delivery when it resolves inward', async () => {
    expect(webhookTargetProblem('https://hooks.example.com./avisos', STRICT)).toBeUndefined();
    const lookup = checkedLookup(STRICT, async () => [{ address: '::ffff:0:127.0.0.1', family: 6 }]);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('hooks.example.com.', {}, (failure) => resolve(failure)));
    expect(error?.code).toBe('EWEBHOOKTARGET');
  });
});
