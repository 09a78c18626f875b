// The lookups an integration may make, as the console's switches list them: each flag in the
// catalogue's order and the lookup it opens. Client components read this: no server imports.
export { FLAG_LOOKUP, FLAG_NAMES } from '@/lib/core/integrations/flags';
