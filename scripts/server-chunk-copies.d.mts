/** Links every server chunk that repeats another to that one. */
export function shareServerChunkCopies(distDir: string): { linked: number; savedBytes: number };
