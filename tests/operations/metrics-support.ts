// Reading the app's Prometheus metrics in tests: the exposition text parsed into samples.
import { expect } from 'vitest';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export async function scrapeMetrics(baseUrl: string, token: string): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`${baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return { text, samples: parseSamples(text) };
}

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (0 when the series does not exist yet). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} series`);
  return found[0]?.value ?? 0;
}
