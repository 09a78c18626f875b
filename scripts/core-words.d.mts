export declare const CORE_WORDS_KNOWN: string;
export declare function spanishLiterals(source: string, fileName?: string): Array<{ line: number; text: string }>;
export declare function coreFiles(root?: string): string[];
export declare function coreWordsProblems(input: { found: Map<string, Array<{ line: number; text: string }>>; known: string[]; mainKnown: string[] | null }): string[];
export declare function mainsList(): string[] | null;
