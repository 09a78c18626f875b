/** The source with every character above U+00FF escaped, or null when one must stay (a tagged template's text). */
export function latin1Source(source: string): string | null;
/** Rewrites the server chunks of a build in place. */
export function latin1ServerCode(distDir: string): { rewritten: number; savedBytes: number; leftTwoByte: string[] };
