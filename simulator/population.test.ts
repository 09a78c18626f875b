import { describe, expect, it } from 'vitest';
import { DEPARTMENTS, isValidClassicNit, isValidCui, isValidNit } from '../lib/platform/guatemala/identifiers';
import { FAULT_IDENTIFIERS, FAULT_NAMES } from './faults';
import { MUNICIPALITIES_BY_DEPARTMENT } from './geography';
import { buildPopulation, createPopulation, CUI_AS_NIT_SINCE, DEFAULT_POPULATION_SIZE, POPULATION_REFERENCE_DATE, samplePopulation, type Taxpayer } from './population';
import { DEFAULT_SIMULATOR_SEED } from './server';
import { OBLIGATIONS } from './vocabulary';

const population = createPopulation({ seed: DEFAULT_SIMULATOR_SEED });
const members: Taxpayer[] = Array.from({ length: population.size }, (_, index) => population.member(index));

describe('synthetic population', () => {
  it('holds at least 10,000 taxpayers, individuals and legal entities', () => {
    expect(population.size).toBe(DEFAULT_POPULATION_SIZE);
    expect(population.size).toBeGreaterThanOrEqual(10_000);
    const individuals = members.filter((member) => member.kind === 'individual').length;
    expect(individuals / population.size).toBeGreaterThan(0.6);
    expect((population.size - individuals) / population.size).toBeGreaterThan(0.1);
  });

  it('is the same for the same seed, whatever order members are read in, and differs across seeds', () => {
    const again = buildPopulation(DEFAULT_SIMULATOR_SEED);
    for (const index of [9_999, 0, 4_321]) expect(again.member(index)).toEqual(population.member(index));
    const other = createPopulation({ seed: DEFAULT_SIMULATOR_SEED + 1 });
    expect(other.member(1).nit).not.toBe(population.member(1).nit);
  });

  it('always holds the showcase taxpayer of the domain notes (NIT 576937-K, CUI 1587564440904), whatever the seed', () => {
    for (const seed of [DEFAULT_SIMULATOR_SEED, 7]) {
      const member = createPopulation({ seed }).findByNit('576937-K');
      expect(member).toMatchObject({ kind: 'individual', nit: '576937K', cui: '1587564440904' });
    }
  });

  it('gives every member a valid, unique NIT; people a valid CUI with a real place; the CUI as NIT after March 2025', () => {
    const nits = new Set<string>();
    for (const member of members) {
      expect(isValidNit(member.nit), member.nit).toBe(true);
      expect(nits.has(member.nit)).toBe(false);
      nits.add(member.nit);
      if (member.kind === 'individual') {
        expect(isValidCui(member.cui ?? ''), member.cui ?? 'no cui').toBe(true);
        if (member.classicNit === null) {
          expect(member.nit).toBe(member.cui);
          expect(member.registrationDate >= CUI_AS_NIT_SINCE).toBe(true);
        } else {
          expect(isValidClassicNit(member.classicNit)).toBe(true);
          expect(member.registrationDate < CUI_AS_NIT_SINCE).toBe(true);
        }
      } else {
        expect(member.cui).toBeNull();
        expect(isValidClassicNit(member.nit)).toBe(true);
      }
    }
    expect(members.some((member) => member.nit.endsWith('K'))).toBe(true);
  });

  it('finds members by NIT (with separators) and by CUI (grouped), and people by their CUI as NIT', () => {
    const entity = members.find((member) => member.kind === 'legal_entity') as Taxpayer;
    expect(population.findByNit(`${entity.nit.slice(0, -1)}-${entity.nit.slice(-1).toLowerCase()}`)?.index).toBe(entity.index);
    const person = members.find((member) => member.classicNit !== null) as Taxpayer;
    const cui = person.cui as string;
    expect(population.findByCui(`${cui.slice(0, 4)} ${cui.slice(4, 9)} ${cui.slice(9)}`)?.index).toBe(person.index);
    expect(population.findByNit(cui)?.index).toBe(person.index);
    expect(population.findByNit('900000015')).toBeNull();
  });

  it('names every municipality of every department, as many as the CUI validator counts', () => {
    for (const department of DEPARTMENTS) {
      expect(MUNICIPALITIES_BY_DEPARTMENT[department.code], department.name).toHaveLength(department.municipalityCount);
    }
  });

  it('has omisos, coercive collection, records without a held copy and records with missing fields', () => {
    const share = (predicate: (member: Taxpayer) => boolean) => members.filter(predicate).length / members.length;
    expect(share((member) => member.omissions.length > 0)).toBeGreaterThan(0.05);
    expect(share((member) => member.coerciveCollection)).toBeGreaterThan(0.01);
    expect(share((member) => !member.sourceHoldsCopy)).toBeGreaterThan(0.02);
    expect(share((member) => member.quirks.length > 0)).toBeGreaterThan(0.05);
  });

  it('files obligations under the SAT forms of their regime, and keeps every date before the reference day', () => {
    const knownForms = new Set<string>(Object.values(OBLIGATIONS).map((obligation) => obligation.form));
    for (const member of members.slice(0, 2_000)) {
      for (const affiliation of [member.isr, member.iva]) {
        if (affiliation === null) continue;
        for (const obligation of affiliation.obligations) expect(knownForms.has(obligation.form)).toBe(true);
      }
      if (member.isr?.regime.code === 12) expect(member.isr.obligations.map((obligation) => obligation.form)).toContain('SAT-1311');
      if (member.iva?.regime.code === 2) expect(member.isr).toBeNull();
      const dates = [member.registrationDate, member.lastUpdateDate, ...member.establishments.map((establishment) => establishment.startDate)];
      for (const date of dates) expect(date < POPULATION_REFERENCE_DATE).toBe(true);
      expect(member.copyTakenAt.slice(0, 10) >= member.registrationDate).toBe(true);
    }
  });

  it('never collides with a fault identifier, which are all valid identifiers', () => {
    for (const fault of FAULT_NAMES) {
      const { nit, cui } = FAULT_IDENTIFIERS[fault];
      expect(isValidNit(nit), nit).toBe(true);
      expect(isValidCui(cui), cui).toBe(true);
      expect(population.findByNit(nit)).toBeNull();
      expect(population.findByCui(cui)).toBeNull();
    }
  });

  it('picks members by trait', () => {
    const sample = samplePopulation({ seed: DEFAULT_SIMULATOR_SEED });
    const memberOf = (index: number) => population.member(index);
    expect(memberOf(sample.individual.index)).toMatchObject({ kind: 'individual', sourceHoldsCopy: true, quirks: [] });
    expect(memberOf(sample.cuiOnlyIndividual.index).classicNit).toBeNull();
    expect(memberOf(sample.legalEntity.index)).toMatchObject({ kind: 'legal_entity', sourceHoldsCopy: true, quirks: [] });
    expect(memberOf(sample.omiso.index).omissions.length).toBeGreaterThan(0);
    expect(memberOf(sample.coerciveCollection.index).coerciveCollection).toBe(true);
    expect(memberOf(sample.withoutHeldCopy.index).sourceHoldsCopy).toBe(false);
    expect(memberOf(sample.withMissingFields.index).quirks.length).toBeGreaterThanOrEqual(2);
    expect(isValidNit(sample.unknownNit) && isValidCui(sample.unknownCui)).toBe(true);
    expect(population.findByNit(sample.unknownNit)).toBeNull();
    expect(population.findByCui(sample.unknownCui)).toBeNull();
  });
});
