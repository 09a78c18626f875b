import type { IncomingMessage } from 'node:http';

/** The body as text, or null when it exceeds `maxBytes` (the simulators refuse it as a real upstream would). */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
