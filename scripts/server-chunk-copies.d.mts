/** What makes two chunks copies of each other: their code, without the source map each names. */
export function chunkKind(text: string): string;
/** Links every server chunk that repeats another to that one. */
export function shareServerChunkCopies(distDir: string): { linked: number; savedBytes: number };
