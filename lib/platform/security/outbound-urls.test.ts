import { describe, expect, it } from 'vitest';
import { describeWebhookUrl, maskWebhookUrl, smtpHostProblem, webhookUrlProblem, withoutUrlSecrets } from './outbound-urls';

describe('describeWebhookUrl', () => {
  it.each([
    ['https://hooks.slack.com/services/T0123ABCD/B0456EFGH/XyZ0aBcDeFgHiJkLmNoPqRsT', 'https://hooks.slack.com/services/…'],
    ['https://discord.com/api/webhooks/112233445566778899/AbCdEf-gHiJkLmNoP_qRsTuV', 'https://discord.com/api/webhooks/…'],
    ['https://alertas.example.gt/hook?token=s3cr3t-t0ken-value', 'https://alertas.example.gt/…'],
    ['https://alertas.example.gt/v1/hook', 'https://alertas.example.gt/…'],
    // The last segment is where a token sits, even a token made of lowercase letters.
    ['https://alertas.example.gt/hook/mysecrettoken', 'https://alertas.example.gt/hook/…'],
    ['https://usuario:clave-secreta@alertas.example.gt:8443/recibir/', 'https://alertas.example.gt:8443/…'],
    ['https://alertas.example.gt/api/alertas#fragmento-secreto', 'https://alertas.example.gt/api/…'],
    ['https://alertas.example.gt/', 'https://alertas.example.gt/'],
    ['https://ALERTAS.example.gt', 'https://alertas.example.gt/'],
    ['no es una URL', '…'],
  ])('%s → %s', (url, description) => {
    expect(describeWebhookUrl(url)).toBe(description);
  });

  it('describes a description as itself (the console describes stored targets again)', () => {
    for (const url of ['https://hooks.slack.com/services/T0/B0/XyZ', 'https://alertas.example.gt/', 'http://127.0.0.1:9000/alertas?token=abcdefgh']) {
      const description = describeWebhookUrl(url);
      expect(describeWebhookUrl(description)).toBe(description);
    }
  });
});

// An integrator's webhook read back after saving (issue 32, point 3): the administrator checks the
// scheme, host and path typed; the query (where a receiver's token goes) and any user part are masked.
describe('maskWebhookUrl', () => {
  it.each([
    ['https://hooks.example.com/gateway?token=s3cr3t-t0ken-value', 'https://hooks.example.com/gateway?••••'],
    ['https://hooks.example.com/pasarela/avisos', 'https://hooks.example.com/pasarela/avisos'],
    ['https://usuario:clave-secreta@hooks.example.com:8443/v1/Avisos/', 'https://••••@hooks.example.com:8443/v1/Avisos/'],
    ['https://hooks.example.com/api/avisos#fragmento-secreto', 'https://hooks.example.com/api/avisos#••••'],
    ['https://HOOKS.example.com', 'https://hooks.example.com/'],
    ['https://hooks.example.com/ruta%20con%20espacio?a=1&b=2', 'https://hooks.example.com/ruta con espacio?••••'],
    ['https://hooks.example.com/?', 'https://hooks.example.com/'],
    ['no es una URL', '…'],
  ])('%s → %s', (url, masked) => {
    expect(maskWebhookUrl(url)).toBe(masked);
  });

  it('never shows the query, the fragment or the user part, and masks a masked URL as itself', () => {
    const url = 'https://ana:p4ss-w0rd@hooks.example.com/avisos?token=abc123456789#xyz987654';
    const masked = maskWebhookUrl(url);
    expect(masked).not.toMatch(/ana|p4ss|abc123456789|xyz987654/);
    expect(maskWebhookUrl(masked)).toBe(masked);
    // A description stored before (audit rows, deliveries) reads as it was written.
    expect(maskWebhookUrl('https://hooks.example.com/pasarela/…')).toBe('https://hooks.example.com/pasarela/…');
  });
});

describe('withoutUrlSecrets', () => {
  const url = 'https://usuario:clave-secreta@hooks.example.gt/services/T0123ABCD/XyZ0aBcDeFgH?token=s3cr3t-t0ken-value';

  it('replaces every URL in a message by its description', () => {
    const message = `TypeError: Request cannot be constructed from a URL that includes credentials: ${url}`;
    expect(withoutUrlSecrets(message)).toBe('TypeError: Request cannot be constructed from a URL that includes credentials: https://hooks.example.gt/services/…');
  });

  it('hides the configured URL’s secret parts wherever they appear on their own, raw or decoded', () => {
    const message = 'invalid path segment XyZ0aBcDeFgH; user usuario, password clave-secreta, query token=s3cr3t-t0ken-value';
    const safe = withoutUrlSecrets(message, url);
    for (const secret of ['XyZ0aBcDeFgH', 'clave-secreta', 's3cr3t-t0ken-value', 'usuario']) expect(safe).not.toContain(secret);
    expect(withoutUrlSecrets('token a%20b%20secreto', 'https://h.example.gt/x?t=a%20b%20secreto')).toBe('token …');
    expect(withoutUrlSecrets('the value was "a b secreto"', 'https://h.example.gt/x?t=a%20b%20secreto')).toBe('the value was "…"');
  });

  it('leaves a message without URLs or secrets as it was', () => {
    expect(withoutUrlSecrets('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9', url)).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9');
    expect(withoutUrlSecrets('HTTP 503')).toBe('HTTP 503');
  });
});

describe('webhookUrlProblem', () => {
  it('refuses what fetch never sends to: credentials in the URL, a blocked port; without repeating the URL', () => {
    const withCredentials = webhookUrlProblem('https://usuario:clave-secreta@alertas.example.gt/hook');
    expect(withCredentials).toMatch(/user name or password/);
    expect(withCredentials).not.toContain('clave-secreta');
    expect(webhookUrlProblem('https://solo-usuario@alertas.example.gt/hook')).toMatch(/user name or password/);
    expect(webhookUrlProblem('http://127.0.0.1:6000/hook')).toMatch(/port 6000/);
  });

  it('accepts tokens in the path or the query, and ordinary ports', () => {
    expect(webhookUrlProblem('https://hooks.slack.com/services/T0/B0/XyZ')).toBeUndefined();
    expect(webhookUrlProblem('https://alertas.example.gt:8443/hook?token=abc')).toBeUndefined();
  });

  it('agrees with fetch: a URL it accepts is one fetch tries, a URL it refuses fetch refuses too', async () => {
    await expect(fetch('http://usuario:clave@127.0.0.1:9/hook')).rejects.toThrow(/credentials/);
    await expect(fetch('http://127.0.0.1:6000/hook')).rejects.toMatchObject({ cause: { message: 'bad port' } });
  });
});

describe('smtpHostProblem', () => {
  it('accepts host names and IP addresses, refuses URLs, ports and credentials', () => {
    for (const host of ['smtp.example.gt', 'localhost', '127.0.0.1', '::1']) expect(smtpHostProblem(host)).toBeUndefined();
    for (const host of ['smtp://alertas:clave@smtp.example.gt', 'smtp.example.gt:587', 'alertas@smtp.example.gt']) {
      const problem = smtpHostProblem(host);
      expect(problem).toMatch(/host name or an IP address/);
      expect(problem).not.toContain('clave');
    }
  });
});
