// Where an alert goes, said without its secrets. A webhook URL often is a credential (Slack's
// /services/T…/B…/<token>, a ?token= query, a user and password): what is stored on a delivery,
// logged, and shown to support staff on the Alertas page is only its description. The delivery
// itself always uses the configured URL.

/** What stands for every part of a URL that is not shown. */
export const HIDDEN = '…';

/**
 * A path segment that is shown: a short lowercase word ("services", "api", "webhooks"). Ids,
 * tokens, anything with digits, capitals or escapes is hidden. The last segment is hidden even
 * when it is a word: that is where services put the token ("/hook/<token>").
 */
const SHOWN_SEGMENT = /^[a-z]+(?:[-_][a-z]+)*$/;
const SHOWN_SEGMENT_MAX_CHARS = 24;

/** A URL inside a text (an error message). The same pattern as migration 0006's SQL. */
const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>]+/g;

/** Parts of a secret URL shorter than this are not looked for on their own inside a text. */
const MIN_SECRET_PART_CHARS = 6;

/**
 * The webhook's description: scheme, host and port, then the path's leading words; everything
 * else (user and password, ids and tokens in the path, its last segment, the whole query and
 * fragment) is one "…". "https://hooks.slack.com/services/T0/B0/XyZ" → "https://hooks.slack.com/services/…".
 */
export function describeWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return HIDDEN;
  }
  const segments = parsed.pathname.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  const shown: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (!SHOWN_SEGMENT.test(segment) || segment.length > SHOWN_SEGMENT_MAX_CHARS) break;
    shown.push(segment);
  }
  const hidesSomething = shown.length < segments.length || parsed.search !== '' || parsed.hash !== '';
  return `${parsed.protocol}//${parsed.host}/${[...shown, ...(hidesSomething ? [HIDDEN] : [])].join('/')}`;
}

/** What stands for the masked parts of a webhook URL read back (its query, fragment and user part). */
export const MASKED = '••••';

/**
 * An integrator's webhook URL read back (the console, the audit, its deliveries): scheme, host,
 * port and the whole path, so the administrator can check what was saved; the query, the fragment
 * and any user part are masked, since that is where a receiver's token goes.
 * "https://hooks.example.com/gateway?token=abc" → "https://hooks.example.com/gateway?••••".
 * Masking a masked URL (or a description) gives it back unchanged.
 */
export function maskWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return HIDDEN;
  }
  const user = parsed.username !== '' || parsed.password !== '' ? `${MASKED}@` : '';
  return `${parsed.protocol}//${user}${parsed.host}${readablePath(parsed.pathname)}${parsed.search ? `?${MASKED}` : ''}${parsed.hash ? `#${MASKED}` : ''}`;
}

/** A path as people typed it: escapes of plain characters decoded ("%20" as a space, "%E2%80%A6" as "…"), reserved ones kept. */
function readablePath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/**
 * A text (an error message) with every URL in it replaced by its description, and with the secret
 * parts of `secretUrl` (the configured webhook) hidden wherever they still appear on their own.
 */
export function withoutUrlSecrets(text: string, secretUrl?: string): string {
  const secretParts = secretUrl ? secretPartsOf(secretUrl) : [];
  const hideParts = (chunk: string) => secretParts.reduce((safe, part) => safe.replaceAll(part, HIDDEN), chunk);
  // The text between URLs loses the secret parts; each URL becomes its description (whose words
  // are shown even when one of them is also, say, the user name).
  let safe = '';
  let end = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    safe += hideParts(text.slice(end, match.index)) + describeWebhookUrl(match[0]);
    end = match.index + match[0].length;
  }
  return safe + hideParts(text.slice(end));
}

/** What describeWebhookUrl leaves out, as raw and as decoded text. */
function secretPartsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const parts = [parsed.username, parsed.password, parsed.search.slice(1), parsed.hash.slice(1)];
  for (const pair of parsed.search.slice(1).split('&')) parts.push(pair, ...pair.split('='));
  const shown = new Set(describeWebhookUrl(url).slice(parsed.origin.length + 1).split('/'));
  for (const segment of parsed.pathname.split('/')) if (!shown.has(segment)) parts.push(segment);
  const decoded = parts.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  return [...new Set([...parts, ...decoded])].filter((part) => part.length >= MIN_SECRET_PART_CHARS).sort((a, b) => b.length - a.length);
}

/**
 * Ports fetch refuses to connect to (the Fetch standard's "bad ports", as undici lists them): a
 * webhook there would fail on every attempt with "bad port".
 */
const FETCH_BAD_PORTS: ReadonlySet<string> = new Set([
  '1', '7', '9', '11', '13', '15', '17', '19', '20', '21', '22', '23', '25', '37', '42', '43', '53', '69', '77', '79',
  '87', '95', '101', '102', '103', '104', '109', '110', '111', '113', '115', '117', '119', '123', '135', '137',
  '139', '143', '161', '179', '389', '427', '465', '512', '513', '514', '515', '526', '530', '531', '532',
  '540', '548', '554', '556', '563', '587', '601', '636', '989', '990', '993', '995', '1719', '1720', '1723',
  '2049', '3659', '4045', '4190', '5060', '5061', '6000', '6566', '6665', '6666', '6667', '6668', '6669', '6679',
  '6697', '10080',
]);

/**
 * Why fetch could never deliver to this (already http(s)) URL, or undefined. Never repeats the URL:
 * the message goes to the start's error output.
 */
export function webhookUrlProblem(url: string): string | undefined {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) return undefined;
  if (parsed.username !== '' || parsed.password !== '') {
    return 'must not carry a user name or password (user:password@): fetch refuses credentials in a URL, so every delivery would fail; the receiver can check X-Alerta-Firma, or take its token in the path or the query';
  }
  if (FETCH_BAD_PORTS.has(parsed.port)) return `port ${parsed.port} is one fetch never connects to (the Fetch standard's bad ports): every delivery would fail`;
  return undefined;
}

/**
 * Why ALERT_SMTP_HOST is not a host name nodemailer can connect to (a URL, a host with a port or
 * with credentials), or undefined. Never repeats the value.
 */
export function smtpHostProblem(host: string): string | undefined {
  const hostName = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/;
  const ipv6 = /^[0-9A-Fa-f:.]+$/;
  if (hostName.test(host) || (host.includes(':') && ipv6.test(host))) return undefined;
  return 'must be a host name or an IP address only (no smtp:// URL, port or credentials: those are ALERT_SMTP_PORT, ALERT_SMTP_USER and ALERT_SMTP_PASS)';
}
