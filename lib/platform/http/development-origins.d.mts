import type { NetworkInterfaceInfo } from 'node:os';

/** next.config.mjs's `allowedDevOrigins`: this machine's addresses and names, and DEV_ALLOWED_ORIGINS. */
export declare function developmentOrigins(options?: {
  interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>;
  hostname?: string;
  extra?: string;
}): string[];
