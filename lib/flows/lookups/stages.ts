import { timeStageAround } from '@/lib/platform/http/lookup-trace';
import type { LookupStage } from '@/lib/platform/metrics/registry';

/**
 * One stage of a lookup: it ends the lookup with an outcome, or hands it on to the stages behind it
 * with `next()` and may act once they answered (a turn is given back, a hold's gauge falls). What
 * every stage would otherwise repeat (timing, refusal counts, traces) is done around the stages by
 * whoever runs them, from the outcome and what the stages noted on the lookup.
 */
export interface LookupStageOf<Lookup, Outcome> {
  /** Where the trace counts its own work (lib/platform/http/lookup-trace.ts); unnamed stages are not timed. */
  readonly timedAs?: LookupStage;
  /** False: the lookup goes straight on to the next stage, untimed (an Idempotency-Key's claim, without a key). */
  readonly appliesTo?: (lookup: Lookup) => boolean;
  run(lookup: Lookup, next: () => Promise<Outcome>): Promise<Outcome>;
}

/** Runs the stages from `from` on, each handing the lookup to the next. */
export function runStages<Lookup, Outcome>(stages: readonly LookupStageOf<Lookup, Outcome>[], lookup: Lookup, from = 0): Promise<Outcome> {
  const stage = stages[from];
  if (!stage) return Promise.reject(new Error('a lookup passed its last stage without an outcome'));
  const next = () => runStages(stages, lookup, from + 1);
  if (stage.appliesTo && !stage.appliesTo(lookup)) return next();
  if (!stage.timedAs) return stage.run(lookup, next);
  return timeStageAround(stage.timedAs, (inner) => stage.run(lookup, () => inner(next)));
}
