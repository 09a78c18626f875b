import { createHash } from 'node:crypto';
import type { Redis as IORedis } from 'ioredis';

/**
 * The slice of @upstash/redis that @upstash/ratelimit's basic limiters call (evalsha, and eval
 * when the script is not loaded), served by a self-hosted Redis through ioredis.
 *
 * @upstash/ratelimit 2.1+ starts every script with `#!lua flags=allow-key-locking`, which stock
 * Redis refuses ("Unexpected flag in script shebang"). We drop that line before the script reaches
 * Redis; since the script's SHA1 then changes, the hash the limiter asks for is mapped to the hash
 * of the script Redis actually holds.
 */
export class SelfHostedRedisScripts {
  private readonly loadedHashes = new Map<string, string>();

  constructor(private readonly client: IORedis) {}

  async evalsha(upstashHash: string, keys: string[], args: unknown[]): Promise<unknown> {
    const hash = this.loadedHashes.get(upstashHash);
    // The limiter answers NOSCRIPT by calling eval() with the script's text, which loads it.
    if (!hash) throw new Error('NOSCRIPT No matching script (not loaded through this adapter yet)');
    try {
      return await this.client.evalsha(hash, keys.length, ...keys, ...args.map(String));
    } catch (error) {
      if (String(error).includes('NOSCRIPT')) this.loadedHashes.delete(upstashHash);
      throw error;
    }
  }

  async eval(script: string, keys: string[], args: unknown[]): Promise<unknown> {
    const stockScript = stripShebang(script);
    const hash = (await this.client.script('LOAD', stockScript)) as string;
    this.loadedHashes.set(sha1(script), hash);
    return this.client.evalsha(hash, keys.length, ...keys, ...args.map(String));
  }
}

export function stripShebang(script: string): string {
  return script.startsWith('#!') ? script.slice(script.indexOf('\n') + 1) : script;
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
