/** The API's policy, and the one for any answer that did not choose its own. */
export declare const DENY_ALL_CONTENT_SECURITY_POLICY: string;
/** One year, subdomains included: sent only when the public URL is https. */
export declare const STRICT_TRANSPORT_SECURITY: string;
/** Headers no answer goes without (server.mjs adds those an answer lacks). */
export declare function baselineSecurityHeaders(options: { https: boolean }): Record<string, string>;
