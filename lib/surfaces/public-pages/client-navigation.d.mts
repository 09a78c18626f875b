/** Set by server.mjs alone, to '1', on a client navigation (Next strips `rsc` and `_rsc` before proxy.ts). */
export declare const CLIENT_NAVIGATION_HEADER: string;
/** A raw request's target and headers: `rsc: 1`, or the `_rsc` query. */
export declare function isClientNavigation(url: string, headers: Record<string, string | string[] | undefined>): boolean;
/** Replaces any client copy of the marker with this server's own verdict. */
export declare function markClientNavigation(request: { url?: string; headers: Record<string, string | string[] | undefined> }): void;
