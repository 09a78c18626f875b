// The time-stamping authority the settings name (lib/providers/timestamping/settings.ts), over HTTP.
import { readFile } from 'node:fs/promises';
import type { TimeStampAuthority } from './authority';
import { httpTimeStampAuthority } from './http-authority';
import { timestampingSettings, type TimestampingSettings } from './settings';

/**
 * Builds the adapter from the settings; throws when they cannot give one (no URL, a certificate
 * file missing or holding no certificate): a configuration mistake, which no outcome stands for.
 */
export async function configuredTimeStampAuthority(settings: TimestampingSettings = timestampingSettings()): Promise<TimeStampAuthority> {
  const url = settings.TSA_URL;
  if (url === undefined) throw new Error('TSA_URL is not set: there is no time-stamping authority to ask');
  const trustedCertificatePem =
    settings.TSA_CERTIFICATE_FILE === undefined ? await simulatorCertificate(url, settings.TSA_TIMEOUT_MS) : await readFile(settings.TSA_CERTIFICATE_FILE, 'utf8');
  return httpTimeStampAuthority({
    url,
    trustedCertificatePem,
    timeoutMs: settings.TSA_TIMEOUT_MS,
    username: settings.TSA_USERNAME,
    password: settings.TSA_PASSWORD,
  });
}

/**
 * Outside production only (production requires TSA_CERTIFICATE_FILE): the simulator serves its
 * certificate, made afresh at each start, at `<TSA_URL>/certificado`.
 */
async function simulatorCertificate(url: string, timeoutMs: number): Promise<string> {
  const address = `${url.replace(/\/+$/, '')}/certificado`;
  const answer = await fetch(address, { signal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
    throw new Error(`TSA_CERTIFICATE_FILE is unset and the authority's certificate could not be fetched from TSA_URL's /certificado: ${(error as Error).message}`);
  });
  const text = await answer.text();
  if (!answer.ok || !text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new Error(`TSA_CERTIFICATE_FILE is unset and TSA_URL's /certificado answered HTTP ${answer.status} without a certificate: set TSA_CERTIFICATE_FILE`);
  }
  return text;
}
