// The instance's Prometheus metrics (prom-client), served at GET /api/metrics. Each instance
// exports its own; Prometheus adds them up. Labels are closed sets (lookup, stage, source,
// outcome, reason): never a token, a NIT or a CUI, and the integration's name only when
// METRICS_INTEGRATION_LABEL is on (its cardinality is the number of integrations).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { processSlot } from '@/lib/platform/runtime/process-state';

export type LookupStage = 'auth' | 'queue' | 'hold' | 'source' | 'settle' | 'idempotency';

/** Readings taken when Prometheus scrapes, from parts that already keep them. */
export interface MetricsProbes {
  breakerStates?: () => Array<{ source: string; state: number }>;
  integrationCacheAgeSeconds?: () => number | undefined;
  limiterStore?: () => string | undefined;
  lookupAdmission?: () => { running: number; waiting: number };
  recordJournalPending?: () => number;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gateway_' });
  const probes: MetricsProbes = {};
  const metrics = {
    registry,
    probes,
    lookups: new Counter({
      name: 'gateway_lookup_requests_total',
      help: 'Lookups answered, by lookup, outcome (success, a refusal reason, a source failure) and HTTP status.',
      labelNames: ['lookup', 'outcome', 'status', 'integration'] as const,
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'gateway_lookup_refusals_total',
      help: 'Requests refused before a source, by lookup and reason (credentials, flag, own limit, global limit, balance, validation).',
      labelNames: ['lookup', 'reason'] as const,
      registers: [registry],
    }),
    untracedRequests: new Counter({
      name: 'gateway_request_traces_untraced_total',
      help: 'Refusals and unserved answers (shed, key in use, source not asked, unexpected errors) not traced by request id, past REQUEST_TRACE_MAX_PER_MINUTE (a flood).',
      registers: [registry],
    }),
    lookupSeconds: new Histogram({
      name: 'gateway_lookup_duration_seconds',
      help: 'Time inside the app per lookup, by lookup.',
      labelNames: ['lookup'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    stageSeconds: new Histogram({
      name: 'gateway_lookup_stage_seconds',
      help: 'Time per stage of a lookup (auth, queue, hold, source, settle).',
      labelNames: ['lookup', 'stage'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    databaseRoundTrips: new Counter({
      name: 'gateway_database_round_trips_total',
      help: 'Statements sent to the database by this instance (lookups, console, jobs).',
      registers: [registry],
    }),
    lookupRoundTrips: new Histogram({
      name: 'gateway_lookup_database_round_trips',
      help: 'Statements sent to the database per lookup, by lookup.',
      labelNames: ['lookup'] as const,
      buckets: [0, 1, 2, 3, 4, 5, 8],
      registers: [registry],
    }),
    upstreamCalls: new Counter({
      name: 'gateway_upstream_calls_total',
      help: 'Calls to each upstream source by classified result (ok, client_error, server_error, timeout, connection_error, circuit_open, bulkhead_full).',
      labelNames: ['source', 'result'] as const,
      registers: [registry],
    }),
    upstreamSeconds: new Histogram({
      name: 'gateway_upstream_call_seconds',
      help: 'Duration of the calls that reached each source.',
      labelNames: ['source'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    breakerState: new Gauge({
      name: 'gateway_upstream_breaker_state',
      help: 'Circuit breaker per source: 0 closed, 1 open, 2 half-open.',
      labelNames: ['source'] as const,
      registers: [registry],
      collect() {
        for (const { source, state } of probes.breakerStates?.() ?? []) this.set({ source }, state);
      },
    }),
    breakerOpenings: new Counter({
      name: 'gateway_upstream_breaker_openings_total',
      help: 'Times each source breaker opened.',
      labelNames: ['source'] as const,
      registers: [registry],
    }),
    holdsOpen: new Gauge({
      name: 'gateway_holds_open',
      help: 'Balance holds this instance placed and has not settled yet (lookups in flight).',
      registers: [registry],
    }),
    sweeperVoids: new Counter({
      name: 'gateway_sweeper_voided_holds_total',
      help: 'Holds the crash sweeper voided on this instance (lookups whose process died).',
      registers: [registry],
    }),
    limiterStore: new Gauge({
      name: 'gateway_limiter_store',
      help: 'The rate-limit store in use (1 for the store named in the label: memory, redis).',
      labelNames: ['store'] as const,
      registers: [registry],
      collect() {
        const store = probes.limiterStore?.();
        this.reset();
        if (store) this.set({ store }, 1);
      },
    }),
    limiterFallbacks: new Counter({
      name: 'gateway_limiter_fallbacks_total',
      help: 'Limit checks decided by the in-memory fallback because Redis did not answer.',
      registers: [registry],
    }),
    lookupsRunning: new Gauge({
      name: 'gateway_lookups_running',
      help: 'Lookups past their checks running now (at most LOOKUP_CONCURRENCY).',
      registers: [registry],
      collect() {
        const admission = probes.lookupAdmission?.();
        if (admission) this.set(admission.running);
      },
    }),
    lookupsWaiting: new Gauge({
      name: 'gateway_lookups_waiting',
      help: 'Lookups past their checks waiting for their turn (at most LOOKUP_QUEUE_MAX).',
      registers: [registry],
      collect() {
        const admission = probes.lookupAdmission?.();
        if (admission) this.set(admission.waiting);
      },
    }),
    lookupsShed: new Counter({
      name: 'gateway_lookups_shed_total',
      help: 'Lookups answered "unavailable" at once because LOOKUP_QUEUE_MAX were already waiting (never charged, never recorded).',
      labelNames: ['lookup'] as const,
      registers: [registry],
    }),
    recordJournalPending: new Gauge({
      name: 'gateway_record_journal_pending',
      help: 'Query records kept on disk because the database did not take them, not yet written (RECORD_JOURNAL_DIR).',
      registers: [registry],
      collect() {
        const pending = probes.recordJournalPending?.();
        if (pending !== undefined) this.set(pending);
      },
    }),
    integrationCacheAge: new Gauge({
      name: 'gateway_integration_cache_age_seconds',
      help: 'Age of the integration credentials copy since its last successful reload started.',
      registers: [registry],
      collect() {
        const age = probes.integrationCacheAgeSeconds?.();
        if (age !== undefined) this.set(age);
      },
    }),
  };
  return metrics;
}

export type GatewayMetrics = ReturnType<typeof createMetrics>;

export function metrics(): GatewayMetrics {
  return processSlot('metrics', createMetrics);
}
