import dns from 'node:dns';
import net, { BlockList } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';
import { webhookUrlProblem } from './outbound-urls';

// Where the service may connect to at an address someone else chose: an integrator's webhook
// (lib/reactions/integrator-notifications/targets.ts), an integrator's identity provider
// (lib/flows/portal-identity/identity-provider.ts). It is the classic server-side request forgery:
// a URL naming (or a host name resolving to) our own network would let anyone who may type one
// probe it. The URL is checked when it is saved and again at every connection, after DNS
// resolution, and the connection goes to the address that was checked (a second lookup could
// answer otherwise: DNS rebinding).

/** What a deployment allows (production refuses allowLocalTargets). */
export interface TargetPolicy {
  /** http:// and private, loopback and link-local addresses (local receivers in development and tests). */
  allowLocalTargets: boolean;
}

// Its one setting, INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS, is read by lib/platform/settings/outbound-targets.ts
// (outboundTargetPolicy()): the settings' folder cannot be read from here, since it reads this one's.

/** Addresses an outbound target never reaches unless local targets are allowed. */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of an IPv4 address, checked as that address below too
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv4 addresses an IPv6 address carries to an IPv4 host: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d, RFC 6145), NAT64's well-known prefix
 * (64:ff9b::a.b.c.d, RFC 6052), 6to4 (2002:AABB:CCDD::, RFC 3056) and Teredo (2001:0::, RFC 4380:
 * the server's address in clear, the client's inverted). A relay or translator on the path delivers
 * to those addresses, so each is checked as if it had been written in IPv4.
 */
export function embeddedIpv4Addresses(address: ipaddr.IPv6): string[] {
  const parts = address.parts;
  const fromWords = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
  const last32 = fromWords(parts[6]!, parts[7]!);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [last32];
    case 'rfc6052':
      return [last32];
    case '6to4':
      return [fromWords(parts[1]!, parts[2]!)];
    case 'teredo':
      return [fromWords(parts[2]!, parts[3]!), fromWords(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff)];
    default:
      // IPv4-compatible (deprecated, ::a.b.c.d): the first 96 bits zero.
      return parts.slice(0, 6).every((part) => part === 0) ? [last32] : [];
  }
}

/** NAT64's local-use prefix (RFC 8215): translators inside an operator's own network, never a public receiver. */
const LOCAL_USE_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/** Why an outbound target must not connect to this IP address, or undefined when it may. */
export function forbiddenAddressReason(address: string): string | undefined {
  const family = net.isIP(address);
  if (family === 0) return 'no es una dirección IP';
  const refused = `la dirección ${address} es privada, local o reservada`;
  if (family === 4) return FORBIDDEN.check(address, 'ipv4') ? refused : undefined;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.match(LOCAL_USE_NAT64)) return refused;
  if (embeddedIpv4Addresses(parsed).some((inner) => FORBIDDEN.check(inner, 'ipv4'))) return refused;
  return FORBIDDEN.check(address, 'ipv6') ? refused : undefined;
}

/** A host name as the name checks compare it: lower case, without the root's trailing dot (`localhost.` is `localhost`). */
export function withoutTrailingDot(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, '');
}

export interface OutboundTargetWords {
  /** Why a URL with a user or a password is refused (a webhook's receiver checks the signature instead). */
  credentials?: string;
}

/**
 * Why this URL can never be an outbound target under the policy, without resolving it (said when it
 * is typed; each connection checks it again): the scheme, credentials, a port fetch refuses, and a
 * host that is itself a forbidden address.
 */
export function outboundTargetProblem(url: string, policy: TargetPolicy, words: OutboundTargetWords = {}): string | undefined {
  if (!URL.canParse(url)) return 'no es una URL válida';
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(policy.allowLocalTargets && parsed.protocol === 'http:')) return 'debe empezar con https://';
  if (parsed.username !== '' || parsed.password !== '') return words.credentials ?? 'no debe llevar usuario ni contraseña';
  if (webhookUrlProblem(url)) return `el puerto ${parsed.port} no se puede usar`;
  if (url.length > 2_000) return 'es demasiado larga (2000 caracteres como máximo)';
  const host = withoutTrailingDot(parsed.hostname.replace(/^\[|\]$/g, ''));
  if (policy.allowLocalTargets) return undefined;
  if (net.isIP(host)) return forbiddenAddressReason(host);
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return 'el nombre no es público';
  return undefined;
}

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** The error code of a connection refused by checkedLookup, unless its caller names another. */
export const OUTBOUND_TARGET_REFUSED = 'EOUTBOUNDTARGET';

/**
 * The `lookup` an outbound connection uses: it resolves the name, refuses it when any of its
 * addresses is forbidden (a name that also points inward is not trusted for its public one), and
 * hands the socket only the first address it checked. A refusal is an error with `refusedCode`.
 */
export function checkedLookup(policy: TargetPolicy, resolve: Resolver = systemResolver, refusedCode: string = OUTBOUND_TARGET_REFUSED) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw Object.assign(new Error(`${hostname} no tiene direcciones`), { code: 'ENOTFOUND' });
        if (!policy.allowLocalTargets) {
          for (const { address } of addresses) {
            const reason = forbiddenAddressReason(address);
            if (reason) throw Object.assign(new Error(`destino rechazado: ${reason}`), { code: refusedCode });
          }
        }
        const chosen = addresses[0]!;
        if (options.all) callback(null, [{ address: chosen.address, family: chosen.family }]);
        else callback(null, chosen.address, chosen.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, ''));
  };
}

/** An HTTP dispatcher whose every connection's address is checked as above. */
export function checkedDispatcher(policy: TargetPolicy, resolve?: Resolver, refusedCode?: string): Agent {
  return new Agent({ connect: { lookup: checkedLookup(policy, resolve, refusedCode) as never }, connections: 4, pipelining: 0 });
}
