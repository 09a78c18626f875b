import http from 'node:http';

/** The response class for http.createServer: the baseline headers an answer lacks, and the rest (gateway-response.mjs). */
export declare function gatewayResponseClass(baselineHeaders: Array<[string, string]>): typeof http.ServerResponse;
