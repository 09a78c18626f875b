export declare const SURFACE_READS_KNOWN: string;
export declare function readsCoreOrFlows(source: string): boolean;
export declare function listedPathPatterns(files: string[]): string[];
export declare function surfaceReadProblems(input: { known: string[]; mainKnown: string[] | null; readsDirectly: (file: string) => boolean }): string[];
export declare function mainsList(): string[] | null;
export declare function knownList(): string[];
