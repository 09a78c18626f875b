// What tests and tools import from the simulator.

export { startSimulator, DEFAULT_SIMULATOR_SEED, DEFAULT_ONLINE_LATENCY_MS, DEFAULT_SLOW_FAULT_DELAY_MS } from './server';
export type { RunningSimulator, SimulatorCredentials, SimulatorOptions } from './server';
export { amendablePopulation, AMENDED_OMISSION, createPopulation, membersWithTrait, samplePopulation, DEFAULT_POPULATION_SIZE } from './population';
export type { Population, PopulationSample, SampleMember, SampleTrait, Taxpayer, TaxpayerAmendment } from './population';
export { FAULT_HEADER, FAULT_IDENTIFIERS, FAULT_NAMES, FAULTS_BY_PROTOCOL, LATENCY_HEADER, faultForIdentifier, parseFaultSpec } from './faults';
export type { FaultName, RunFault, SimulatedProtocol } from './faults';
