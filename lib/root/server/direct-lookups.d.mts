import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { DirectLookup } from '../../surfaces/api/direct-lookups';

/** The registered answerer for this request, if it is a POST to a lookup's exact path. */
export declare function directLookupFor(request: IncomingMessage): DirectLookup | undefined;
/** Answers a lookup with its registered answerer: headers and body in one write. */
export declare function answerLookup(lookup: DirectLookup, response: ServerResponse, log: Logger): Promise<void>;
/** Has Next load the lookup routes the app announced at its start, so each registers itself. */
export declare function loadLookupRoutes(origin: string, log: Logger): Promise<void>;
