import ipaddr from 'ipaddr.js';
import { SERVER_BRIDGES } from '@/lib/platform/runtime/server-bridges.mjs';

/** Header set by server.mjs from the socket; any copy a client sends is overwritten there. */
export const PEER_IP_HEADER = 'x-gateway-peer-ip';

const SERVER_WRAPPER_MARK = SERVER_BRIDGES.serverWrapper;

/**
 * Whether this process was started through server.mjs, the only thing that makes PEER_IP_HEADER
 * trustworthy: under `next start` a client would write that header itself and pick its own IP.
 */
export function startedThroughServerWrapper(): boolean {
  return (globalThis as Record<symbol, unknown>)[SERVER_WRAPPER_MARK] === true;
}

/** The key every client address that cannot be parsed shares: garbage never earns its own quota. */
export const UNKNOWN_CLIENT = 'unknown';

/**
 * The client's address for the per-IP limits. With no trusted proxies it is the socket's peer,
 * whatever X-Forwarded-For says. Behind N trusted proxies (load balancers that append the address
 * they saw), it is the address N hops back: the proxies' entries are trusted, anything further
 * left was written by the client and ignored. The result is canonical (clientKey).
 */
export function clientIp(peerIp: string | null, forwardedFor: string | null, trustedHops: number, ipv6PrefixLength = 64): string {
  return clientKey(chosenAddress(peerIp, forwardedFor, trustedHops), ipv6PrefixLength);
}

/** The address N trusted hops back, as written (UNKNOWN_CLIENT when there is none). */
function chosenAddress(peerIp: string | null, forwardedFor: string | null, trustedHops: number): string {
  const peer = peerIp?.trim() || UNKNOWN_CLIENT;
  if (trustedHops === 0) return peer;
  const chain = (forwardedFor ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  chain.push(peer);
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}

/**
 * The client's own address, chosen as clientIp chooses it but whole (an IPv6 address, not its
 * network; an IPv4 address mapped into IPv6 as IPv4), for the integrations' allow-lists
 * (lib/core/credentials/allow-list.ts); null when it cannot be read.
 */
export function clientAddress(peerIp: string | null, forwardedFor: string | null, trustedHops: number): string | null {
  const chosen = chosenAddress(peerIp, forwardedFor, trustedHops);
  return remembered(wholeAddresses, chosen, () => {
    const parsed = parseAddress(chosen);
    if (!parsed) return null;
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().toString();
    return parsed.toString();
  });
}

/**
 * What each address read as, remembered: a lookup reads its client's address twice (the per-IP
 * limit, the allow-list) and the same few clients send most requests, while parsing one took some
 * 5 µs of every lookup (docs/performance.md, "The floor, thread by thread and file by file").
 * Bounded: only what can be an address is kept, and a full map starts over, so a flood of
 * addresses costs what it cost before and holds no more memory.
 */
const REMEMBERED_ADDRESSES = 4096;
const LONGEST_ADDRESS = 64;
const wholeAddresses = new Map<string, string | null>();
const clientKeys = new Map<string, string>();

function remembered<T>(memory: Map<string, T>, text: string, read: () => T): T {
  if (text.length > LONGEST_ADDRESS) return read();
  const known = memory.get(text);
  if (known !== undefined) return known;
  const value = read();
  if (memory.size >= REMEMBERED_ADDRESSES) memory.clear();
  memory.set(text, value);
  return value;
}

/**
 * One key per client as the limits count them: an IPv4 address (also when it arrives mapped into
 * IPv6, ::ffff:203.0.113.7), or the IPv6 network of `ipv6PrefixLength` bits, because a single
 * host usually holds a whole /64 and could otherwise take a fresh address for every request.
 */
export function clientKey(address: string, ipv6PrefixLength: number): string {
  return remembered(clientKeys, `${ipv6PrefixLength} ${address}`, () => {
    const parsed = parseAddress(address);
    if (!parsed) return UNKNOWN_CLIENT;
    if (parsed.kind() === 'ipv4') return parsed.toString();
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    const network = ipaddr.IPv6.networkAddressFromCIDR(`${v6.toNormalizedString()}/${ipv6PrefixLength}`);
    return `${network.toString()}/${ipv6PrefixLength}`;
  });
}

/** An address as proxies write it: bare, with a zone (fe80::1%eth0), or with a port (1.2.3.4:80, [::1]:80). */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(text);
  const candidate = (bracketed?.[1] ?? ipv4WithPort?.[1] ?? text).replace(/%.*$/, '');
  // Only dotted quads for IPv4: ipaddr.js also reads "12345" or "0x7f.1" as addresses.
  if (ipaddr.IPv4.isValidFourPartDecimal(candidate)) return ipaddr.IPv4.parse(candidate);
  return ipaddr.IPv6.isValid(candidate) ? ipaddr.IPv6.parse(candidate) : undefined;
}

/**
 * The client key of a request, with this deployment's settings. The peer header counts only when
 * server.mjs wrote it; otherwise every client shares UNKNOWN_CLIENT's quota (the start refuses to
 * run without server.mjs anyway: lib/root/startup.ts).
 */
export function requestClientIp(header: (name: string) => string | null, settings: { TRUSTED_PROXY_HOPS: number; RATE_LIMIT_IPV6_PREFIX_LENGTH: number }): string {
  const peer = startedThroughServerWrapper() ? header(PEER_IP_HEADER) : null;
  return clientIp(peer, header('x-forwarded-for'), settings.TRUSTED_PROXY_HOPS, settings.RATE_LIMIT_IPV6_PREFIX_LENGTH);
}

/** The request's client address for the allow-lists, with this deployment's settings (see requestClientIp). */
export function requestClientAddress(header: (name: string) => string | null, settings: { TRUSTED_PROXY_HOPS: number }): string | null {
  const peer = startedThroughServerWrapper() ? header(PEER_IP_HEADER) : null;
  return clientAddress(peer, header('x-forwarded-for'), settings.TRUSTED_PROXY_HOPS);
}
