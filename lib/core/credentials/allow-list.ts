import ipaddr from 'ipaddr.js';

/** At most this many entries per integration: an allow-list names servers, not the internet. */
export const MAX_ALLOW_LIST_ENTRIES = 100;

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * What is wrong with an allow-list entry, and what its sentence needs: the console, the portal and
 * the CLI say it in words (lib/flows/integration-management/allow-list-messages.ts).
 */
export type AllowListProblem =
  | { code: 'empty' }
  | { code: 'not_ip_or_cidr'; typed: string }
  | { code: 'not_an_address'; typed: string }
  | { code: 'prefix_out_of_range'; typed: string; maxBits: number }
  | { code: 'bits_past_prefix'; typed: string; bits: number; network: string }
  | { code: 'too_many'; max: number };

/**
 * Reads one allow-list entry as typed in the console or the CLI: an IPv4 or IPv6 address, or a
 * CIDR range of either. Returns the canonical text (`203.0.113.7`, `203.0.113.0/24`,
 * `2001:db8::/32`) or what is wrong. IPv4 only as dotted quads: ipaddr.js would also read
 * "12345" or "0x7f.1" as addresses, which nobody means.
 */
export function parseAllowListEntry(text: string): { ok: true; entry: string } | { ok: false; problem: AllowListProblem } {
  const typed = text.trim();
  if (typed === '') return { ok: false, problem: { code: 'empty' } };
  const [address, bitsText, extra] = typed.split('/');
  if (extra !== undefined) return { ok: false, problem: { code: 'not_ip_or_cidr', typed } };
  const parsed = parseAddress(address!);
  if (!parsed) return { ok: false, problem: { code: 'not_an_address', typed } };
  const maxBits = parsed.kind() === 'ipv4' ? 32 : 128;
  if (bitsText === undefined) return { ok: true, entry: parsed.toString() };
  if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > maxBits) {
    return { ok: false, problem: { code: 'prefix_out_of_range', typed, maxBits } };
  }
  const bits = Number(bitsText);
  const network = parsed.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed.toString()}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${bits}`);
  if (network.toString() !== parsed.toString()) {
    return { ok: false, problem: { code: 'bits_past_prefix', typed, bits, network: network.toString() } };
  }
  return { ok: true, entry: `${network.toString()}/${bits}` };
}

/** Reads a whole list (one entry per line, or separated by commas or spaces): every problem at once. */
export function parseAllowList(text: string | string[]): { ok: true; entries: string[] } | { ok: false; problems: AllowListProblem[] } {
  const items = (Array.isArray(text) ? text : text.split(/[\s,]+/)).map((item) => item.trim()).filter(Boolean);
  const entries: string[] = [];
  const problems: AllowListProblem[] = [];
  for (const item of items) {
    const parsed = parseAllowListEntry(item);
    if (parsed.ok) {
      if (!entries.includes(parsed.entry)) entries.push(parsed.entry);
    } else problems.push(parsed.problem);
  }
  if (entries.length > MAX_ALLOW_LIST_ENTRIES) problems.push({ code: 'too_many', max: MAX_ALLOW_LIST_ENTRIES });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, entries };
}

/** The stored entries as networks, for matching per lookup (parsed once per reload). */
export function compileAllowList(entries: string[]): Network[] {
  return entries.map((entry) => {
    const [address, bits] = entry.split('/');
    const parsed = ipaddr.parse(address!);
    return [parsed, bits === undefined ? (parsed.kind() === 'ipv4' ? 32 : 128) : Number(bits)];
  });
}

/**
 * Whether a client address is allowed: an empty list allows every address; an address that cannot
 * be read is allowed by no list. An IPv4 address mapped into IPv6 (::ffff:203.0.113.7) is matched
 * as the IPv4 address it is.
 */
export function addressAllowed(networks: Network[], address: string | null): boolean {
  if (networks.length === 0) return true;
  const parsed = address ? parseAddress(address) : undefined;
  if (!parsed) return false;
  const client = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  return networks.some(([network, bits]) => network.kind() === client.kind() && client.match(network, bits));
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  return ipaddr.IPv6.isValid(text) && !text.includes('%') ? ipaddr.IPv6.parse(text) : undefined;
}
