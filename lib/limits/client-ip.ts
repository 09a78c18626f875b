/** Header set by server.mjs from the socket; any copy a client sends is overwritten there. */
export const PEER_IP_HEADER = 'x-gateway-peer-ip';

/**
 * The client's address for the per-IP limit. With no trusted proxies it is the socket's peer,
 * whatever X-Forwarded-For says. Behind N trusted proxies (load balancers that append the address
 * they saw), it is the address N hops back: the proxies' entries are trusted, anything further
 * left was written by the client and ignored.
 */
export function clientIp(peerIp: string | null, forwardedFor: string | null, trustedHops: number): string {
  const peer = peerIp?.trim() || 'unknown';
  if (trustedHops === 0) return peer;
  const chain = (forwardedFor ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  chain.push(peer);
  return chain[Math.max(0, chain.length - 1 - trustedHops)]!;
}
