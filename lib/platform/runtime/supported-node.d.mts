/** The `engines.node` range of package.json, such as ">=24.11.0". */
export declare const SUPPORTED_NODE_RANGE: string;
/** Why this process must not start on `version` (default: this process's), or undefined when it is supported. */
export declare function unsupportedNodeMessage(version?: string): string | undefined;
/** Whether AsyncLocalStorage runs on AsyncContextFrame (the Node.js 24 default) rather than async hooks. */
export declare function asyncContextFrameEnabled(): boolean;
/** What the start lines say about the runtime. */
export declare function runtimeDescription(): { node: string; asyncContextFrame: boolean };
