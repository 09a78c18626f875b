// The hosts a browser may open `npm run dev` by. next dev serves its own resources (the page's
// hot-reload socket, its dev endpoints) only to pages opened by localhost or by the address it
// listens on (HOST, 0.0.0.0 by default): opened by 127.0.0.1 or by a colleague on the LAN, a page
// never hydrated. Plain JavaScript: next.config.mjs loads it with no compiler in between.
import os from 'node:os';

/**
 * next.config.mjs's `allowedDevOrigins`: every address of this machine's interfaces (IPv6 in
 * brackets, as a URL writes it), its host name and that name's .local (mDNS) form, and the names
 * DEV_ALLOWED_ORIGINS lists (host names or wildcards such as *.example.test; a URL is reduced to
 * its host name, since Next matches host names only). Read once, when next dev starts: an address
 * the machine gets later needs a restart. Production ignores the list.
 */
export function developmentOrigins({ interfaces = os.networkInterfaces(), hostname = os.hostname(), extra = process.env.DEV_ALLOWED_ORIGINS } = {}) {
  const addresses = Object.values(interfaces)
    .flat()
    .filter((entry) => entry !== undefined)
    .map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));
  const name = hostname.toLowerCase();
  const extras = (extra ?? '')
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .map((entry) => (entry.includes('://') && URL.canParse(entry) ? new URL(entry).hostname : entry).toLowerCase());
  return [...new Set([...addresses, name, `${name}.local`, ...extras])];
}
