// Fault injection: every outcome a client must classify can be produced on purpose, per request
// (a reserved identifier, or the x-sim-fault header) or per run (an option / SIMULATOR_FAULT).
// docs/sources.md lists the same identifiers; a test keeps the two in step.

import { normalizeCui, normalizeNit } from '../lib/platform/guatemala/identifiers';
import { createRandom, labelSeed, mixSeed } from './random';

export type SimulatedProtocol = 'renap' | 'rtu' | 'catalog';
export const SIMULATED_PROTOCOLS: readonly SimulatedProtocol[] = ['renap', 'rtu', 'catalog'];

export const FAULT_NAMES = [
  'data_rejected',
  'auth_rejected',
  'balance_exhausted',
  'query_type_denied',
  'not_found',
  'query_failed',
  'rate_limited',
  'server_error',
  'unparseable',
  'connection_dropped',
  'slow',
  'empty_success',
  'error_code_in_success',
] as const;

export type FaultName = (typeof FAULT_NAMES)[number];

/**
 * Reserved identifiers, one NIT and one CUI per fault. All are valid (mod-11 NIT, CUI with check
 * digit and real department/municipality), so they pass any format check on the way, and they lie
 * outside the ranges the population draws from (NIT bodies and CUI serials from 99990000).
 */
export const FAULT_IDENTIFIERS: Readonly<Record<FaultName, { nit: string; cui: string }>> = {
  data_rejected: { nit: '999900013', cui: '9999001020101' },
  auth_rejected: { nit: '999900021', cui: '9999002180101' },
  balance_exhausted: { nit: '99990003K', cui: '9999003070101' },
  query_type_denied: { nit: '999900048', cui: '9999004040101' },
  not_found: { nit: '999900056', cui: '9999005010101' },
  query_failed: { nit: '999900064', cui: '9999006090101' },
  rate_limited: { nit: '999900072', cui: '9999007060101' },
  server_error: { nit: '999900080', cui: '9999008030101' },
  unparseable: { nit: '999900099', cui: '9999009000101' },
  connection_dropped: { nit: '999900102', cui: '9999010010101' },
  slow: { nit: '999900110', cui: '9999011090101' },
  empty_success: { nit: '999900129', cui: '9999012060101' },
  error_code_in_success: { nit: '999900137', cui: '9999013030101' },
};

/** The faults each protocol can express; a reserved identifier of another fault is just unknown there. */
export const FAULTS_BY_PROTOCOL: Readonly<Record<SimulatedProtocol, readonly FaultName[]>> = {
  renap: ['data_rejected', 'auth_rejected', 'not_found', 'rate_limited', 'server_error', 'unparseable', 'connection_dropped', 'slow', 'error_code_in_success'],
  rtu: ['data_rejected', 'auth_rejected', 'not_found', 'rate_limited', 'server_error', 'unparseable', 'connection_dropped', 'slow', 'empty_success'],
  // Every fault but the person registry's own (a 200 carrying an error responseCode).
  catalog: FAULT_NAMES.filter((fault) => fault !== 'error_code_in_success'),
};

/** Request header naming a fault for that request only. The gateway's clients never send it. */
export const FAULT_HEADER = 'x-sim-fault';
/** Request header replacing the run's base latency for that request, in milliseconds. */
export const LATENCY_HEADER = 'x-sim-latency-ms';

const faultByIdentifier = new Map<string, FaultName>();
for (const fault of FAULT_NAMES) {
  faultByIdentifier.set(FAULT_IDENTIFIERS[fault].nit, fault);
  faultByIdentifier.set(FAULT_IDENTIFIERS[fault].cui, fault);
}

export function isFaultName(value: string): value is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(value);
}

/** The fault a reserved NIT or CUI selects (separators and case ignored), or null. */
export function faultForIdentifier(identifier: string): FaultName | null {
  return faultByIdentifier.get(normalizeNit(identifier)) ?? faultByIdentifier.get(normalizeCui(identifier)) ?? null;
}

/** A fault applied to a whole run: to `rate` of the requests of the listed protocols. */
export interface RunFault {
  fault: FaultName;
  protocols: SimulatedProtocol[];
  rate: number;
}

/**
 * Parses SIMULATOR_FAULT: comma-separated `[protocol:]fault[@rate]`, e.g.
 * `catalog:rate_limited@0.25,renap:server_error,slow@0.1`. Without a protocol the fault applies
 * to every protocol that can express it; without a rate, to every request.
 */
export function parseFaultSpec(spec: string): RunFault[] {
  const faults: RunFault[] = [];
  for (const rawEntry of spec.split(',')) {
    const entry = rawEntry.trim();
    if (entry === '') continue;
    const match = /^(?:(renap|rtu|catalog):)?([a-z_]+)(?:@([0-9]*\.?[0-9]+))?$/.exec(entry);
    if (match === null) throw new Error(`SIMULATOR_FAULT: cannot read "${entry}"; expected [protocol:]fault[@rate]`);
    const [, protocol, faultName = '', rateText] = match;
    if (!isFaultName(faultName)) throw new Error(`SIMULATOR_FAULT: unknown fault "${faultName}"; known: ${FAULT_NAMES.join(', ')}`);
    const rate = rateText === undefined ? 1 : Number(rateText);
    if (!(rate > 0 && rate <= 1)) throw new Error(`SIMULATOR_FAULT: rate of "${entry}" must be in (0, 1]`);
    const protocols = (protocol === undefined ? SIMULATED_PROTOCOLS : [protocol as SimulatedProtocol]).filter((candidate) =>
      FAULTS_BY_PROTOCOL[candidate].includes(faultName),
    );
    if (protocols.length === 0) throw new Error(`SIMULATOR_FAULT: ${protocol} cannot express "${faultName}"`);
    faults.push({ fault: faultName, protocols, rate });
  }
  return faults;
}

export interface FaultRequest {
  protocol: SimulatedProtocol;
  /** Value of the x-sim-fault header, if any. */
  headerFault: string | undefined;
  /** Every NIT or CUI the request carries. */
  identifiers: string[];
}

export type FaultChoice = { ok: true; fault: FaultName | null } | { ok: false; problem: string };

/**
 * Decides the fault of one request. Precedence: the header, then a reserved identifier, then the
 * run's faults in order. Rates draw from a PRNG seeded by the run's seed, so a run replays the
 * same sequence of faults for the same sequence of requests.
 */
export function createFaultPlan(options: { runFaults: RunFault[]; seed: number }) {
  const random = createRandom(mixSeed(options.seed, labelSeed('faults')));
  return {
    choose(request: FaultRequest): FaultChoice {
      const supported = FAULTS_BY_PROTOCOL[request.protocol];
      if (request.headerFault !== undefined) {
        const named = request.headerFault.trim();
        if (!isFaultName(named) || !supported.includes(named)) {
          return { ok: false, problem: `${FAULT_HEADER}: "${named}" is not a fault of ${request.protocol}; known: ${supported.join(', ')}` };
        }
        return { ok: true, fault: named };
      }
      for (const identifier of request.identifiers) {
        const fault = faultForIdentifier(identifier);
        if (fault !== null && supported.includes(fault)) return { ok: true, fault };
      }
      for (const runFault of options.runFaults) {
        if (!runFault.protocols.includes(request.protocol)) continue;
        if (runFault.rate >= 1 || random.next() < runFault.rate) return { ok: true, fault: runFault.fault };
      }
      return { ok: true, fault: null };
    },
  };
}

export type FaultPlan = ReturnType<typeof createFaultPlan>;
