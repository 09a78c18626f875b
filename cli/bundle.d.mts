// Types of cli/bundle.mjs (plain JavaScript: it runs before anything compiles TypeScript).
/** Builds the bundle if a source changed since the last build; its path. */
export declare function ensureCliBundle(): Promise<string>;
