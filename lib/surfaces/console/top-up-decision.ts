// How long an approval's note may be, for the decision forms. Client components read this: no server imports.
export { APPROVAL_NOTE_MAX_LENGTH } from '@/lib/flows/top-ups/messages';
