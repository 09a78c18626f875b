import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// Requests that left no query record (refused before any source, a 502 or 500 the service could not
// serve, a replayed Idempotency-Key answer) are traced by request id, so support can explain any id
// an integrator gives. A flood (wrong tokens, an overload's shed lookups) is counted, not traced.
export const REQUEST_TRACE_SETTINGS = defineSettings({
  title: 'Request traces (lib/core/request-traces)',
  shape: {
    REQUEST_TRACE_MAX_PER_MINUTE: integer(300, 0, 100_000),
    REQUEST_TRACE_RETENTION_DAYS: integer(7, 1, 90),
  },
  docs: {
    REQUEST_TRACE_MAX_PER_MINUTE: 'Refusals and unserved answers traced by request id (reason, status, integration and time, never an identifier) per instance and minute; the rest are counted per hour.',
    REQUEST_TRACE_RETENTION_DAYS: 'Days those traces are kept.',
  },
});

export type RequestTraceSettings = SettingsOf<typeof REQUEST_TRACE_SETTINGS>;

/** The process's request trace settings, read on first use. */
export const requestTraceSettings = (): RequestTraceSettings => REQUEST_TRACE_SETTINGS.current();
