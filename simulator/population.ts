// The synthetic population of Guatemalan taxpayers the simulator serves: individuals and legal
// entities with valid NITs and CUIs, regimes, affiliations, obligations, establishments, special
// traits, omisos and coercive collection. This module holds the truth about each taxpayer; the
// protocol modules publish it in each upstream's own shape.
//
// Building is split in two so that start-up stays fast and lookups stay deterministic: all
// identifiers are drawn at creation (a few milliseconds for 12,000 members, needed for the
// NIT/CUI indexes), while a member's full record is generated on demand from its own seeded
// stream, so it never depends on which other members were looked at before.

import { cuiCheckDigit, DEPARTMENTS, nitCheckCharacter, normalizeCui, normalizeNit } from '../lib/platform/guatemala/identifiers';
import { addYears, daysFromIso, isoFromDays, isoTimestamp, yearsBetween } from './dates';
import { DEPARTMENT_WEIGHTS, MUNICIPALITIES_BY_DEPARTMENT, municipalityName } from './geography';
import { createRandom, labelSeed, mixSeed, type Random } from './random';
import {
  ASSOCIATION_PREFIXES,
  BRAND_WORDS,
  COMPANY_CORE_WORDS,
  COMPANY_FORMS,
  COMPANY_PREFIXES,
  ECONOMIC_ACTIVITIES,
  ECONOMIC_SECTORS,
  FEMALE_GIVEN_NAMES,
  MALE_GIVEN_NAMES,
  NEIGHBOURHOODS,
  OBLIGATIONS,
  OCCUPATIONS,
  SPECIAL_TRAITS,
  STREET_KINDS,
  SURNAMES,
  TRADE_NAME_QUALIFIERS,
  type EconomicActivity,
  type ObligationKey,
} from './vocabulary';

export const DEFAULT_POPULATION_SIZE = 12_000;
/** The day the synthetic registries describe; the source's held copies are all older than it. */
export const POPULATION_REFERENCE_DATE = '2025-12-31';
const REFERENCE_DAYS = daysFromIso(POPULATION_REFERENCE_DATE);
/** SAT-DSI-393-2025: from this day a person's CUI is also their NIT; new people get no classic NIT. */
export const CUI_AS_NIT_SINCE = '2025-03-17';

export type TaxpayerKind = 'individual' | 'legal_entity';
export type TaxpayerStatus = 'ACTIVO' | 'SUSPENDIDO' | 'CANCELADO';

/**
 * Ways a member's catalog publication departs from the complete record, so normalizers meet
 * missing fields, codes of the other type and values they do not recognize.
 */
export type PublicationQuirk =
  | 'no_birth_date'
  | 'no_gender'
  | 'no_phone'
  | 'no_participation_flags'
  | 'no_person_type'
  | 'unrecognized_person_type'
  | 'no_compliance_flags'
  | 'no_affiliation_date'
  | 'codes_as_strings'
  | 'no_economic_sector'
  | 'unrecognized_boolean';

export interface Place {
  departmentCode: string;
  departmentName: string;
  municipalityCode: string;
  municipalityName: string;
}

export interface FiscalDomicile extends Place {
  zone: number | null;
  address: string;
  phone: string;
}

export interface Person {
  givenNames: string[];
  firstSurname: string;
  secondSurname: string | null;
  marriedSurname: string | null;
  gender: 'M' | 'F';
  birthDate: string;
  birthPlace: Place;
  maritalStatus: 'SOLTERO' | 'CASADO' | 'UNIDO' | 'VIUDO' | 'DIVORCIADO';
  occupation: string;
  deceased: boolean;
  deathDate: string | null;
  dpiSerie: string;
  dpiVersion: string;
  dpiIssueDate: string;
  /** Null when the DPI does not expire: the holder reaches 70 before the ten years pass. */
  dpiExpiryDate: string | null;
  tradeAssociationMember: boolean;
  businessChamberMember: boolean;
}

export interface Representative {
  nit: string;
  cui: string | null;
  name: string;
  position: 'REPRESENTANTE LEGAL' | 'GERENTE GENERAL' | 'PRESIDENTE DEL CONSEJO' | 'MANDATARIO';
  appointedOn: string;
}

export interface Company {
  legalName: string;
  companyKind: string;
  incorporationDate: string;
  notaryNit: string;
  shareCapital: number;
  representatives: Representative[];
}

export interface CatalogEntry {
  code: number | string;
  name: string;
}

export interface Obligation {
  key: ObligationKey;
  name: string;
  period: string;
  form: string;
  marksOmiso: boolean;
  active: boolean;
}

export interface TaxAffiliation {
  tax: 'ISR' | 'IVA';
  regime: CatalogEntry;
  taxpayerType: CatalogEntry;
  period: CatalogEntry;
  calculation: CatalogEntry;
  status: CatalogEntry;
  incomeType: CatalogEntry | null;
  establishmentType: CatalogEntry | null;
  exempt: boolean;
  since: string;
  obligations: Obligation[];
}

export interface Establishment {
  sequence: number;
  name: string;
  type: string;
  classification: string;
  activity: EconomicActivity;
  startDate: string;
  status: 'ACTIVO' | 'CERRADO';
  closedOn: string | null;
  domicile: FiscalDomicile;
  email: string | null;
}

export interface Brand {
  code: number;
  name: string;
  status: 1 | 2;
  statusDate: string;
  validFrom: string;
  validUntil: string;
}

export interface SpecialTrait {
  code: number;
  name: string;
  active: boolean;
  statusDate: string;
  from: string;
  until: string | null;
}

export interface Taxpayer {
  index: number;
  kind: TaxpayerKind;
  /** The NIT SAT files the taxpayer under: the classic NIT, or the CUI for people without one. */
  nit: string;
  classicNit: string | null;
  cui: string | null;
  /** As SAT's systems publish it: `APELLIDO1,APELLIDO2,APELLIDO_CASADA,NOMBRE1,NOMBRE2` or the legal name. */
  satName: string;
  tradeName: string | null;
  person: Person | null;
  company: Company | null;
  status: TaxpayerStatus;
  registrationDate: string;
  lastUpdateDate: string;
  activities: Array<{ activity: EconomicActivity; principal: boolean; since: string }>;
  sector: { code: number; name: string; since: string } | null;
  domicile: FiscalDomicile;
  establishments: Establishment[];
  brands: Brand[];
  specialTraits: SpecialTrait[];
  isr: TaxAffiliation | null;
  iva: TaxAffiliation | null;
  /** Authority text of each unfiled obligation; empty when the taxpayer is not omiso. */
  omissions: string[];
  coerciveCollection: boolean;
  /** False when the catalog source holds no copy: its RTU query then needs date_of_birth. */
  sourceHoldsCopy: boolean;
  /** When the source took its copy (ISO 8601 UTC); what fechaConsulta reports with actualizado false. */
  copyTakenAt: string;
  /** What date_of_birth must carry for this taxpayer: birth date, or incorporation date of an entity. */
  dateOfBirth: string;
  quirks: PublicationQuirk[];
}

export interface Population {
  seed: number;
  size: number;
  member(index: number): Taxpayer;
  /** By classic NIT or, for people, by CUI (their NIT since 2025); separators and case ignored. */
  findByNit(nit: string): Taxpayer | null;
  findByCui(cui: string): Taxpayer | null;
}

interface Identity {
  kind: TaxpayerKind;
  cui: string | null;
  classicNit: string | null;
}

const populations = new Map<string, Population>();

/** The population for a seed; built once per process and size, then shared (it is immutable). */
export function createPopulation(options: { seed: number; size?: number }): Population {
  const size = options.size ?? DEFAULT_POPULATION_SIZE;
  const key = `${options.seed}:${size}`;
  let population = populations.get(key);
  if (population === undefined) {
    population = buildPopulation(options.seed, size);
    populations.set(key, population);
  }
  return population;
}

/** A new population, not shared: createPopulation is what the simulator and tests normally use. */
export function buildPopulation(seed: number, size: number = DEFAULT_POPULATION_SIZE): Population {
  const identities = drawIdentities(seed, size);
  const indexByNit = new Map<string, number>();
  const indexByCui = new Map<string, number>();
  identities.forEach((identity, index) => {
    if (identity.classicNit !== null) indexByNit.set(identity.classicNit, index);
    if (identity.cui !== null) {
      indexByCui.set(identity.cui, index);
      indexByNit.set(identity.cui, index);
    }
  });

  const member = (index: number): Taxpayer => generateMember(seed, index, identities);
  const memberAt = (index: number | undefined) => (index === undefined ? null : member(index));

  return {
    seed,
    size,
    member,
    findByNit: (nit) => memberAt(indexByNit.get(normalizeNit(nit))),
    findByCui: (cui) => memberAt(indexByCui.get(normalizeCui(cui))),
  };
}

/**
 * What a test may change about a taxpayer between two questions (the source's data moves: a
 * supplier files late and becomes omiso, a coercive process starts or ends, the RTU closes a record).
 */
export interface TaxpayerAmendment {
  /** true: one unfiled obligation is recorded (if none was); false: none is. */
  omiso?: boolean;
  coerciveCollection?: boolean;
  status?: TaxpayerStatus;
}

/** The authority text of the obligation an amendment makes a taxpayer omiso of. */
export const AMENDED_OMISSION = 'IVA GENERAL MENSUAL: DECLARACIÓN NO PRESENTADA (PERÍODO 10/2026)';

/**
 * A population whose taxpayers a test can change (the simulator's own, never the shared one that
 * createPopulation caches): `amend` changes a taxpayer by NIT from then on, in every protocol.
 */
export function amendablePopulation(base: Population): Population & { amend(nit: string, amendment: TaxpayerAmendment): void } {
  const amendments = new Map<number, TaxpayerAmendment>();
  const apply = (member: Taxpayer | null): Taxpayer | null => {
    const amendment = member === null ? undefined : amendments.get(member.index);
    if (member === null || amendment === undefined) return member;
    return {
      ...member,
      omissions: amendment.omiso === undefined ? member.omissions : amendment.omiso ? (member.omissions.length > 0 ? member.omissions : [AMENDED_OMISSION]) : [],
      coerciveCollection: amendment.coerciveCollection ?? member.coerciveCollection,
      status: amendment.status ?? member.status,
    };
  };
  return {
    seed: base.seed,
    size: base.size,
    member: (index) => apply(base.member(index))!,
    findByNit: (nit) => apply(base.findByNit(nit)),
    findByCui: (cui) => apply(base.findByCui(cui)),
    amend(nit, amendment) {
      const member = base.findByNit(nit);
      if (member === null) throw new Error(`no taxpayer of the population has NIT ${nit}`);
      amendments.set(member.index, { ...amendments.get(member.index), ...amendment });
    },
  };
}

// Identifier ranges. Fault identifiers (simulator/faults.ts) use NIT bodies from 99990000 and CUI
// serials from 99990000, outside both ranges, so a member can never collide with one.
const INDIVIDUAL_NIT_BODIES = [100_000, 89_999_999] as const;
const ENTITY_NIT_BODIES = [1_000, 12_999_999] as const;
const CUI_SERIALS = [10_000_000, 39_999_999] as const;

/**
 * Member 0 of every population is the person of the domain notes' test vectors (NIT 576937-K,
 * CUI 1587564440904), so documentation and the first-start curl line can name a taxpayer that
 * exists whatever the seed.
 */
export const SHOWCASE_MEMBER = { nit: '576937K', cui: '1587564440904' } as const;

function drawIdentities(seed: number, size: number): Identity[] {
  const random = createRandom(mixSeed(seed, labelSeed('identities')));
  const usedNits = new Set<string>([SHOWCASE_MEMBER.nit]);
  const usedCuis = new Set<string>([SHOWCASE_MEMBER.cui]);
  const identities: Identity[] = [{ kind: 'individual', cui: SHOWCASE_MEMBER.cui, classicNit: SHOWCASE_MEMBER.nit }];
  for (let index = 1; index < size; index += 1) {
    if (random.chance(0.78)) {
      const cui = drawUnique(usedCuis, () => drawCui(random));
      const classicNit = random.chance(0.72) ? drawUnique(usedNits, () => drawClassicNit(random, INDIVIDUAL_NIT_BODIES)) : null;
      identities.push({ kind: 'individual', cui, classicNit });
    } else {
      identities.push({ kind: 'legal_entity', cui: null, classicNit: drawUnique(usedNits, () => drawClassicNit(random, ENTITY_NIT_BODIES)) });
    }
  }
  return identities;
}

function drawUnique(used: Set<string>, draw: () => string): string {
  for (;;) {
    const value = draw();
    if (!used.has(value)) {
      used.add(value);
      return value;
    }
  }
}

function drawClassicNit(random: Random, [min, max]: readonly [number, number]): string {
  const body = String(random.int(min, max));
  return body + nitCheckCharacter(body);
}

function drawCui(random: Random): string {
  for (;;) {
    const serial = String(random.int(CUI_SERIALS[0], CUI_SERIALS[1]));
    const check = cuiCheckDigit(serial);
    if (check === null) continue; // RENAP never issues a serial whose remainder is 10
    const department = random.weighted(DEPARTMENT_WEIGHTS);
    const count = DEPARTMENTS.find((candidate) => candidate.code === department)?.municipalityCount ?? 1;
    const municipality = String(random.int(1, count)).padStart(2, '0');
    return `${serial}${check}${department}${municipality}`;
  }
}

// ---------------------------------------------------------------------------------------------
// One member's full record

function generateMember(seed: number, index: number, identities: readonly Identity[]): Taxpayer {
  const identity = identities[index];
  if (identity === undefined) throw new RangeError(`No member ${index} in a population of ${identities.length}`);
  const random = createRandom(mixSeed(seed, labelSeed('member'), index));
  if (identity.kind === 'individual') return generateIndividual(random, index, identity);
  const individualAt = (other: number) => (identities[other]?.kind === 'individual' ? generateMember(seed, other, identities) : null);
  return generateLegalEntity(random, index, identity, identities.length, individualAt);
}

type RegimeProfile = 'pequeno' | 'pequeno_electronico' | 'opcional' | 'utilidades' | 'asalariado' | 'exenta';

function generateIndividual(random: Random, index: number, identity: Identity): Taxpayer {
  const cui = identity.cui as string;
  const hasClassicNit = identity.classicNit !== null;

  const gender = random.chance(0.5) ? 'M' : 'F';
  // People who only have a CUI-as-NIT registered recently; they are mostly young.
  const age = hasClassicNit ? random.int(20, 86) : random.int(18, 40);
  const birthDate = isoFromDays(daysFromIso(addYears(POPULATION_REFERENCE_DATE, -age)) - random.int(0, 364));
  const birthPlace = placeFromCodes(cui.slice(9, 11), cui.slice(11, 13));
  const maritalStatus = random.weighted<Person['maritalStatus']>([
    ['SOLTERO', age < 28 ? 70 : 30],
    ['CASADO', 45],
    ['UNIDO', 12],
    ['VIUDO', age > 60 ? 15 : 2],
    ['DIVORCIADO', 5],
  ]);
  const givenNamePool = gender === 'M' ? MALE_GIVEN_NAMES : FEMALE_GIVEN_NAMES;
  const givenNames = [random.pick(givenNamePool)];
  if (random.chance(0.85)) givenNames.push(random.pick(givenNamePool));
  if (random.chance(0.08)) givenNames.push(random.pick(givenNamePool));
  const marriedSurname = gender === 'F' && maritalStatus === 'CASADO' && random.chance(0.45) ? random.pick(SURNAMES) : null;
  const person: Person = {
    givenNames,
    firstSurname: random.pick(SURNAMES),
    secondSurname: random.chance(0.96) ? random.pick(SURNAMES) : null,
    marriedSurname,
    gender,
    birthDate,
    birthPlace,
    maritalStatus,
    occupation: random.pick(OCCUPATIONS),
    deceased: false,
    deathDate: null,
    dpiSerie: `${String.fromCharCode(65 + random.int(0, 25))}${random.digits(7)}`,
    dpiVersion: String(random.weighted([[1, 55], [2, 30], [3, 15]] as const)),
    dpiIssueDate: '',
    dpiExpiryDate: null,
    tradeAssociationMember: random.chance(0.06),
    businessChamberMember: random.chance(0.04),
  };
  const adulthood = daysFromIso(addYears(birthDate, 18));
  person.dpiIssueDate = isoFromDays(random.int(Math.min(Math.max(adulthood, REFERENCE_DAYS - 3_600), REFERENCE_DAYS - 30), REFERENCE_DAYS - 30));
  const expiry = addYears(person.dpiIssueDate, 10);
  person.dpiExpiryDate = yearsBetween(birthDate, expiry) >= 70 ? null : expiry;
  const registrationDate = hasClassicNit
    ? isoFromDays(random.int(Math.max(adulthood, daysFromIso('1992-01-01')), daysFromIso(CUI_AS_NIT_SINCE) - 1))
    : isoFromDays(random.int(Math.min(Math.max(adulthood, daysFromIso(CUI_AS_NIT_SINCE)), REFERENCE_DAYS - 20), REFERENCE_DAYS - 20));
  if (age > 55 && random.chance(0.01)) {
    person.deceased = true;
    person.deathDate = isoFromDays(random.int(daysFromIso(registrationDate) + 1, REFERENCE_DAYS - 1));
  }

  const profile = random.weighted<RegimeProfile>([
    ['pequeno', 38],
    ['pequeno_electronico', 8],
    ['opcional', 22],
    ['utilidades', 7],
    ['asalariado', 25],
  ]);
  const domicile = drawDomicile(random, random.chance(0.5) ? birthPlace.departmentCode : null);
  const hasBusiness = profile !== 'asalariado';
  const activities = hasBusiness ? drawActivities(random, registrationDate, random.chance(0.2) ? 2 : 1) : [];
  const principal = activities[0]?.activity;
  const tradeName = principal !== undefined && random.chance(0.7) ? `${principal.trade} ${random.pick(TRADE_NAME_QUALIFIERS)}` : null;
  const satName = satText(
    [person.firstSurname, person.secondSurname ?? '', marriedSurname ?? '', givenNames[0] ?? '', givenNames.slice(1).join(' ')].join(','),
  );
  const establishments =
    principal === undefined
      ? []
      : drawEstablishments(random, {
          count: random.chance(0.88) ? 1 : 2,
          baseName: tradeName ?? satName.split(',').filter(Boolean).reverse().join(' '),
          activities: activities.map((entry) => entry.activity),
          from: registrationDate,
          fiscalDomicile: domicile,
          emailDomain: random.pick(['gmail.com', 'hotmail.com', 'yahoo.com']),
        });

  const affiliations = drawAffiliations(random, profile, registrationDate, 'individual');
  const specialTraits = drawSpecialTraits(random, registrationDate, hasBusiness ? { fel: 0.45, withholdingIva: 0.01, withholdingIsr: 0.01, exporter: 0.02, large: 0, medium: 0.005, maquila: 0 } : null);
  const brands = hasBusiness && random.chance(0.06) ? drawBrands(random, registrationDate) : [];

  return finishTaxpayer(random, index, {
    kind: 'individual',
    nit: identity.classicNit ?? cui,
    classicNit: identity.classicNit,
    cui,
    satName,
    tradeName,
    person,
    company: null,
    registrationDate,
    activities,
    domicile,
    establishments,
    brands,
    specialTraits,
    ...affiliations,
    dateOfBirth: birthDate,
    deceased: person.deceased,
  });
}

function generateLegalEntity(
  random: Random,
  index: number,
  identity: Identity,
  populationSize: number,
  individualAt: (index: number) => Taxpayer | null,
): Taxpayer {
  const form = random.weighted(COMPANY_FORMS.map((candidate) => [candidate, candidate.weight] as const));
  const core = random.pick(COMPANY_CORE_WORDS);
  const legalName =
    form.kind === 'ASOCIACION'
      ? `${random.pick(ASSOCIATION_PREFIXES)} ${core}`
      : form.kind === 'COOPERATIVA'
        ? `COOPERATIVA INTEGRAL DE AHORRO Y CREDITO ${core}, ${form.suffix}`
        : `${random.pick(COMPANY_PREFIXES)} ${core}, ${form.suffix}`;
  const incorporationDate = isoFromDays(random.int(daysFromIso('1965-01-01'), REFERENCE_DAYS - 60));
  const registrationDate = isoFromDays(Math.min(REFERENCE_DAYS - 20, daysFromIso(incorporationDate) + random.int(5, 90)));
  const profile: RegimeProfile =
    form.kind === 'ASOCIACION' || form.kind === 'COOPERATIVA' ? 'exenta' : random.chance(0.6) ? 'utilidades' : 'opcional';

  const domicile = drawDomicile(random, random.chance(0.6) ? '01' : null);
  const activities = drawActivities(random, registrationDate, random.int(1, 3));
  const principal = activities[0]?.activity;
  const tradeName = random.chance(0.8) ? `${random.pick(COMPANY_PREFIXES)} ${core}` : null;
  const establishments = drawEstablishments(random, {
    count: random.weighted([[1, 55], [2, 25], [3, 12], [4, 8]] as const),
    baseName: tradeName ?? legalName,
    activities: activities.map((entry) => entry.activity),
    from: registrationDate,
    fiscalDomicile: domicile,
    emailDomain: `${core.toLowerCase().replace(/[^a-z]+/g, '')}.com.gt`,
  });

  const representatives: Representative[] = [];
  const representativeCount = random.weighted([[1, 70], [2, 25], [3, 5]] as const);
  // Representatives are people of the same population, so their NIT resolves to a record too.
  for (let attempt = 0; representatives.length < representativeCount && attempt < 50; attempt += 1) {
    const candidate = individualAt(random.int(0, populationSize - 1));
    if (candidate === null || representatives.some((existing) => existing.nit === candidate.nit)) continue;
    representatives.push({
      nit: candidate.nit,
      cui: candidate.cui,
      name: candidate.satName,
      position: representatives.length === 0 ? 'REPRESENTANTE LEGAL' : random.pick(['GERENTE GENERAL', 'PRESIDENTE DEL CONSEJO', 'MANDATARIO'] as const),
      appointedOn: isoFromDays(random.int(daysFromIso(registrationDate), REFERENCE_DAYS - 10)),
    });
  }

  const company: Company = {
    legalName,
    companyKind: form.kind,
    incorporationDate,
    notaryNit: drawClassicNit(random, INDIVIDUAL_NIT_BODIES),
    shareCapital: random.pick([5_000, 10_000, 25_000, 50_000, 100_000, 500_000, 1_000_000, 5_000_000]),
    representatives,
  };
  const affiliations = drawAffiliations(random, profile, registrationDate, 'legal_entity');
  const large = random.chance(0.03);
  const specialTraits = drawSpecialTraits(random, registrationDate, {
    fel: 0.75,
    withholdingIva: large ? 0.9 : 0.06,
    withholdingIsr: large ? 0.9 : 0.1,
    exporter: principal !== undefined && principal.sector <= 2 ? 0.3 : 0.03,
    large: large ? 1 : 0,
    medium: large ? 0 : 0.06,
    maquila: principal?.ciiu === '1410' ? 0.8 : 0,
  });
  addWithholdingObligations(affiliations, specialTraits);

  return finishTaxpayer(random, index, {
    kind: 'legal_entity',
    nit: identity.classicNit as string,
    classicNit: identity.classicNit,
    cui: null,
    satName: satText(legalName),
    tradeName,
    person: null,
    company,
    registrationDate,
    activities,
    domicile,
    establishments,
    brands: [],
    specialTraits,
    ...affiliations,
    dateOfBirth: incorporationDate,
    deceased: false,
  });
}

/** What each kind of member draws itself; finishTaxpayer adds the traits they share. */
type MemberDraft = Pick<
  Taxpayer,
  | 'kind'
  | 'nit'
  | 'classicNit'
  | 'cui'
  | 'satName'
  | 'tradeName'
  | 'person'
  | 'company'
  | 'registrationDate'
  | 'activities'
  | 'domicile'
  | 'establishments'
  | 'brands'
  | 'specialTraits'
  | 'isr'
  | 'iva'
  | 'dateOfBirth'
> & { deceased: boolean };

/** The traits every kind of member shares: compliance, status, the source's copy and quirks. */
function finishTaxpayer(random: Random, index: number, draft: MemberDraft): Taxpayer {
  const obligations = [...(draft.isr?.obligations ?? []), ...(draft.iva?.obligations ?? [])].filter((obligation) => obligation.marksOmiso);
  const omiso = obligations.length > 0 && random.chance(0.14);
  const omissions = omiso ? drawOmissions(random, obligations) : [];
  const coerciveCollection = omiso ? random.chance(0.2) : random.chance(0.005);
  const status: TaxpayerStatus = draft.deceased
    ? 'CANCELADO'
    : random.weighted([
        ['ACTIVO', 90],
        ['SUSPENDIDO', omiso ? 25 : 3],
        ['CANCELADO', 3],
      ]);
  if (status !== 'ACTIVO') {
    for (const affiliation of [draft.isr, draft.iva]) {
      if (affiliation !== null) affiliation.status = status === 'SUSPENDIDO' ? AFFILIATION_STATUS.suspended : AFFILIATION_STATUS.removed;
    }
  }
  const principal = draft.activities[0];
  // The copy is taken after registration, and reflects every update made before it.
  const copyDay = random.int(Math.max(daysFromIso(draft.registrationDate) + 1, REFERENCE_DAYS - 200), REFERENCE_DAYS - 1);
  const copyTakenAt = isoTimestamp(new Date(copyDay * 86_400_000 + random.int(6 * 3_600, 20 * 3_600) * 1_000));
  const lastUpdateDate = isoFromDays(random.int(daysFromIso(draft.registrationDate), copyDay));
  return {
    index,
    kind: draft.kind,
    nit: draft.nit,
    classicNit: draft.classicNit,
    cui: draft.cui,
    satName: draft.satName,
    tradeName: draft.tradeName,
    person: draft.person,
    company: draft.company,
    status,
    registrationDate: draft.registrationDate,
    lastUpdateDate,
    activities: draft.activities,
    sector:
      principal === undefined
        ? null
        : { code: principal.activity.sector, name: ECONOMIC_SECTORS[principal.activity.sector] ?? 'OTROS', since: principal.since },
    domicile: draft.domicile,
    establishments: draft.establishments,
    brands: draft.brands,
    specialTraits: draft.specialTraits,
    isr: draft.isr,
    iva: draft.iva,
    omissions,
    coerciveCollection,
    sourceHoldsCopy: !random.chance(0.06),
    copyTakenAt,
    dateOfBirth: draft.dateOfBirth,
    quirks: random.chance(0.09) ? drawQuirks(random, draft.kind) : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Pieces of a record

/** A day up to `maxOffsetDays` after `fromIsoDate`, never after the registries' reference date. */
function dayAfter(random: Random, fromIsoDate: string, maxOffsetDays: number): string {
  return isoFromDays(Math.min(REFERENCE_DAYS - 1, daysFromIso(fromIsoDate) + random.int(0, maxOffsetDays)));
}

/** SAT publishes names in uppercase without accents; Ñ stays. */
export function satText(value: string): string {
  return value
    .toUpperCase()
    .replace(/Ñ/g, '\u0000')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\u0000/g, 'Ñ');
}

function placeFromCodes(departmentCode: string, municipalityCode: string): Place {
  const department = DEPARTMENTS.find((candidate) => candidate.code === departmentCode);
  if (department === undefined) throw new RangeError(`Unknown department ${departmentCode}`);
  return {
    departmentCode,
    departmentName: department.name,
    municipalityCode,
    municipalityName: municipalityName(departmentCode, municipalityCode),
  };
}

function drawDomicile(random: Random, departmentCode: string | null): FiscalDomicile {
  const department = departmentCode ?? random.weighted(DEPARTMENT_WEIGHTS);
  const municipalities = MUNICIPALITIES_BY_DEPARTMENT[department] ?? [];
  const municipalityCode = String(random.int(1, municipalities.length)).padStart(2, '0');
  const place = placeFromCodes(department, municipalityCode);
  const isCapital = department === '01' && municipalityCode === '01';
  const isUrbanArea = municipalityCode === '01' || department === '01';
  const zone = isCapital ? random.int(1, 25) : isUrbanArea ? random.int(1, 6) : null;
  const address = isUrbanArea
    ? `${random.int(1, 30)}A. ${random.pick(STREET_KINDS)} ${random.int(1, 40)}-${String(random.int(1, 99)).padStart(2, '0')}${zone === null ? '' : ` ZONA ${zone}`}`
    : `${random.pick(NEIGHBOURHOODS)}, ${satText(place.municipalityName)}`;
  const phonePrefix = isCapital ? '2' : random.pick(['3', '4', '5', '7']);
  return { ...place, zone, address, phone: `${phonePrefix}${random.digits(7)}` };
}

function drawActivities(random: Random, from: string, count: number): Taxpayer['activities'] {
  const activities: Taxpayer['activities'] = [];
  while (activities.length < count) {
    const activity = random.pick(ECONOMIC_ACTIVITIES);
    if (activities.some((entry) => entry.activity.ciiu === activity.ciiu)) continue;
    activities.push({ activity, principal: activities.length === 0, since: dayAfter(random, from, 400) });
  }
  return activities;
}

function drawEstablishments(
  random: Random,
  options: { count: number; baseName: string; activities: EconomicActivity[]; from: string; fiscalDomicile: FiscalDomicile; emailDomain: string },
): Establishment[] {
  const establishments: Establishment[] = [];
  for (let sequence = 1; sequence <= options.count; sequence += 1) {
    const activity = options.activities[(sequence - 1) % options.activities.length] as EconomicActivity;
    const closed = sequence > 1 && random.chance(0.15);
    const startDate = dayAfter(random, options.from, 900);
    const domicile = sequence === 1 ? options.fiscalDomicile : drawDomicile(random, random.chance(0.7) ? options.fiscalDomicile.departmentCode : null);
    establishments.push({
      sequence,
      name: sequence === 1 ? satText(options.baseName) : `${satText(options.baseName)} SUCURSAL ${sequence - 1}`,
      type: sequence === 1 ? 'CASA MATRIZ' : random.pick(['SUCURSAL', 'BODEGA', 'PUNTO DE VENTA']),
      classification: activity.sector <= 2 ? 'PRODUCCION' : activity.sector === 3 ? 'COMERCIAL' : 'SERVICIOS',
      activity,
      startDate,
      status: closed ? 'CERRADO' : 'ACTIVO',
      closedOn: closed ? dayAfter(random, startDate, 1_500) : null,
      domicile,
      email: random.chance(0.6) ? `${satText(options.baseName).toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '').slice(0, 24)}@${options.emailDomain}` : null,
    });
  }
  return establishments;
}

const AFFILIATION_STATUS = {
  active: { code: 'A', name: 'ACTIVA' },
  suspended: { code: 'S', name: 'SUSPENDIDA' },
  removed: { code: 'B', name: 'DE BAJA' },
} as const;

const PERIODS = {
  monthly: { code: 'M', name: 'MENSUAL' },
  quarterly: { code: 'T', name: 'TRIMESTRAL' },
  annual: { code: 'A', name: 'ANUAL' },
} as const;

function obligation(key: ObligationKey, marksOmiso = true): Obligation {
  const definition = OBLIGATIONS[key];
  return { key, name: definition.name, period: definition.period, form: definition.form, marksOmiso, active: true };
}

function drawAffiliations(
  random: Random,
  profile: RegimeProfile,
  registrationDate: string,
  kind: TaxpayerKind,
): { isr: TaxAffiliation | null; iva: TaxAffiliation | null } {
  const since = registrationDate;
  const taxpayerType = kind === 'individual' ? { code: 1, name: 'PERSONA INDIVIDUAL' } : { code: 2, name: 'PERSONA JURIDICA' };
  const isr = (regime: CatalogEntry, period: CatalogEntry, calculation: CatalogEntry, incomeType: CatalogEntry, obligations: Obligation[], exempt = false): TaxAffiliation => ({
    tax: 'ISR',
    regime,
    taxpayerType,
    period,
    calculation,
    status: AFFILIATION_STATUS.active,
    incomeType,
    establishmentType: null,
    exempt,
    since,
    obligations,
  });
  const iva = (regime: CatalogEntry, calculation: CatalogEntry, obligations: Obligation[], exempt = false): TaxAffiliation => ({
    tax: 'IVA',
    regime,
    taxpayerType,
    period: PERIODS.monthly,
    calculation,
    status: AFFILIATION_STATUS.active,
    incomeType: null,
    establishmentType: kind === 'individual' ? { code: 1, name: 'COMERCIAL' } : random.pick([{ code: 1, name: 'COMERCIAL' }, { code: 2, name: 'INDUSTRIAL' }, { code: 3, name: 'SERVICIOS' }]),
    exempt,
    since,
    obligations,
  });
  const lucrative = { code: 1, name: 'RENTAS DE ACTIVIDADES LUCRATIVAS' };
  const debitsCredits = { code: 1, name: 'DEBITOS MENOS CREDITOS' };
  switch (profile) {
    case 'pequeno':
      return { isr: null, iva: iva({ code: 2, name: 'PEQUEÑO CONTRIBUYENTE' }, { code: 3, name: 'CUOTA SOBRE INGRESOS BRUTOS' }, [obligation('ivaPequeno')]) };
    case 'pequeno_electronico':
      return {
        isr: null,
        iva: iva({ code: 3, name: 'REGIMEN ELECTRONICO DE PEQUEÑO CONTRIBUYENTE' }, { code: 3, name: 'CUOTA SOBRE INGRESOS BRUTOS' }, [obligation('ivaPequenoElectronico')]),
      };
    case 'opcional':
      return {
        isr: isr({ code: 12, name: 'OPCIONAL SIMPLIFICADO SOBRE INGRESOS DE ACTIVIDADES LUCRATIVAS' }, PERIODS.monthly, { code: 2, name: 'SOBRE INGRESOS BRUTOS' }, lucrative, [obligation('isrOpcionalMensual')]),
        iva: iva({ code: 1, name: 'GENERAL' }, debitsCredits, [obligation('ivaGeneral')]),
      };
    case 'utilidades': {
      const isrObligations = [obligation('isrTrimestral'), obligation('isrAnual')];
      if (kind === 'legal_entity' || random.chance(0.4)) isrObligations.push(obligation('iso'));
      if (random.chance(0.05)) isrObligations.push(obligation('isrCapital'));
      return {
        isr: isr({ code: 11, name: 'SOBRE LAS UTILIDADES DE ACTIVIDADES LUCRATIVAS' }, PERIODS.quarterly, { code: 1, name: 'SOBRE UTILIDADES' }, lucrative, isrObligations),
        iva: iva({ code: 1, name: 'GENERAL' }, debitsCredits, [obligation('ivaGeneral')]),
      };
    }
    case 'asalariado':
      return {
        isr: isr({ code: 13, name: 'RENTAS DEL TRABAJO EN RELACION DE DEPENDENCIA' }, PERIODS.annual, { code: 4, name: 'RETENCION DEL PATRONO' }, { code: 2, name: 'RENTAS DEL TRABAJO' }, [obligation('isrRelacionDependencia', false)]),
        iva: null,
      };
    case 'exenta':
      return {
        isr: isr({ code: 11, name: 'SOBRE LAS UTILIDADES DE ACTIVIDADES LUCRATIVAS' }, PERIODS.annual, { code: 1, name: 'SOBRE UTILIDADES' }, lucrative, [obligation('isrAnual')], true),
        iva: iva({ code: 1, name: 'GENERAL' }, debitsCredits, [obligation('ivaGeneral')], true),
      };
  }
}

/** Withholding agents file the withholding returns too. */
function addWithholdingObligations(affiliations: { isr: TaxAffiliation | null; iva: TaxAffiliation | null }, traits: SpecialTrait[]): void {
  if (traits.some((trait) => trait.code === 6 && trait.active)) affiliations.isr?.obligations.push(obligation('isrRetenciones'));
  if (traits.some((trait) => trait.code === 5 && trait.active)) affiliations.iva?.obligations.push(obligation('ivaRetenciones'));
}

interface TraitOdds {
  fel: number;
  withholdingIva: number;
  withholdingIsr: number;
  exporter: number;
  large: number;
  medium: number;
  maquila: number;
}

function drawSpecialTraits(random: Random, from: string, odds: TraitOdds | null): SpecialTrait[] {
  if (odds === null) return [];
  const byCode: Record<number, number> = { 5: odds.withholdingIva, 6: odds.withholdingIsr, 11: odds.exporter, 14: odds.large, 15: odds.medium, 21: odds.fel, 23: odds.maquila };
  const traits: SpecialTrait[] = [];
  for (const trait of SPECIAL_TRAITS) {
    if (!random.chance(byCode[trait.code] ?? 0)) continue;
    // Electronic invoicing (FEL) started in July 2019; nobody carries the trait from before.
    const start = dayAfter(random, trait.code === 21 && from < '2019-07-01' ? '2019-07-01' : from, 600);
    const active = start >= POPULATION_REFERENCE_DATE || random.chance(0.9);
    const until = active ? null : dayAfter(random, start, 1_500);
    traits.push({ code: trait.code, name: trait.name, active, statusDate: until ?? start, from: start, until });
  }
  return traits;
}

function drawBrands(random: Random, from: string): Brand[] {
  const validFrom = dayAfter(random, from, 2_000);
  const status = daysFromIso(addYears(validFrom, 10)) < daysFromIso(POPULATION_REFERENCE_DATE) ? 2 : 1;
  return [
    {
      code: random.int(100_000, 299_999),
      name: `${random.pick(BRAND_WORDS)} ${random.pick(BRAND_WORDS)}`,
      status,
      statusDate: status === 2 ? addYears(validFrom, 10) : validFrom,
      validFrom,
      validUntil: addYears(validFrom, 10),
    },
  ];
}

function drawOmissions(random: Random, obligations: Obligation[]): string[] {
  const omissions: string[] = [];
  const count = random.weighted([[1, 50], [2, 25], [3, 15], [6, 10]] as const);
  for (let attempt = 0; omissions.length < count && attempt < 20; attempt += 1) {
    const missed = random.pick(obligations);
    const year = random.int(2021, 2025);
    const period =
      missed.period === 'MENSUAL'
        ? `${String(random.int(1, 12)).padStart(2, '0')}/${year}`
        : missed.period === 'TRIMESTRAL'
          ? `TRIMESTRE ${random.int(1, 4)}/${year}`
          : `ANUAL ${year - 1}`;
    const text = `${missed.form} ${missed.name} PERIODO ${period} NO PRESENTADO`;
    if (!omissions.includes(text)) omissions.push(text);
  }
  return omissions;
}

function drawQuirks(random: Random, kind: TaxpayerKind): PublicationQuirk[] {
  const candidates: PublicationQuirk[] =
    kind === 'individual'
      ? ['no_birth_date', 'no_gender', 'no_phone', 'no_participation_flags', 'no_person_type', 'unrecognized_person_type', 'no_compliance_flags', 'no_affiliation_date', 'codes_as_strings', 'no_economic_sector', 'unrecognized_boolean']
      : ['no_phone', 'no_person_type', 'unrecognized_person_type', 'no_compliance_flags', 'no_affiliation_date', 'codes_as_strings'];
  const quirks: PublicationQuirk[] = [];
  const count = random.int(1, 3);
  while (quirks.length < count) {
    const quirk = random.pick(candidates);
    if (!quirks.includes(quirk)) quirks.push(quirk);
  }
  return quirks;
}

// ---------------------------------------------------------------------------------------------
// Picking members by trait (tests, operators)

export interface SampleMember {
  index: number;
  kind: TaxpayerKind;
  nit: string;
  cui: string | null;
  /** What date_of_birth must carry: birth date, or incorporation date of an entity. */
  dateOfBirth: string;
}

export interface PopulationSample {
  /** A person with a classic NIT, a held copy and a complete publication. */
  individual: SampleMember;
  /** A person registered after 17 March 2025 whose NIT is the CUI. */
  cuiOnlyIndividual: SampleMember;
  /** A legal entity with a held copy and a complete publication. */
  legalEntity: SampleMember;
  omiso: SampleMember;
  coerciveCollection: SampleMember;
  /** The source holds no copy: /ficha needs fecha_nacimiento (date_of_birth). */
  withoutHeldCopy: SampleMember;
  /** A publication with missing fields or unrecognized values. */
  withMissingFields: SampleMember;
  /** Valid identifiers no registry knows. */
  unknownNit: string;
  unknownCui: string;
}

const clean = (member: Taxpayer) => member.sourceHoldsCopy && member.quirks.length === 0 && member.omissions.length === 0 && !member.coerciveCollection;

/** What each member of a PopulationSample is, as a test of a taxpayer. */
const SAMPLE_TRAITS = {
  individual: (member: Taxpayer) => member.kind === 'individual' && member.classicNit !== null && clean(member) && member.status === 'ACTIVO',
  cuiOnlyIndividual: (member: Taxpayer) => member.kind === 'individual' && member.classicNit === null && clean(member),
  legalEntity: (member: Taxpayer) => member.kind === 'legal_entity' && clean(member) && member.status === 'ACTIVO',
  omiso: (member: Taxpayer) => member.omissions.length > 0 && !member.coerciveCollection && member.quirks.length === 0 && member.sourceHoldsCopy,
  coerciveCollection: (member: Taxpayer) => member.coerciveCollection && member.quirks.length === 0 && member.sourceHoldsCopy,
  withoutHeldCopy: (member: Taxpayer) => !member.sourceHoldsCopy,
  withMissingFields: (member: Taxpayer) => member.quirks.length >= 2 && member.kind === 'individual' && member.sourceHoldsCopy,
} satisfies Record<string, (member: Taxpayer) => boolean>;

export type SampleTrait = keyof typeof SAMPLE_TRAITS;

function sampleMember(index: number, member: Taxpayer): SampleMember {
  return { index, kind: member.kind, nit: member.nit, cui: member.cui, dateOfBirth: member.dateOfBirth };
}

/**
 * Up to `count` members with a trait, scanning from index 0 (the first is samplePopulation's):
 * many taxpayers of one kind, so that a load can name a new one on each request.
 */
export function membersWithTrait(options: { seed: number; size?: number }, trait: SampleTrait, count: number): SampleMember[] {
  const population = createPopulation(options);
  const members: SampleMember[] = [];
  for (let index = 0; index < population.size && members.length < count; index += 1) {
    const member = population.member(index);
    if (SAMPLE_TRAITS[trait](member)) members.push(sampleMember(index, member));
  }
  return members;
}

/** The first member of each trait, scanning from index 0: stable for a seed. */
export function samplePopulation(options: { seed: number; size?: number }): PopulationSample {
  const population = createPopulation(options);
  const found: Partial<Record<SampleTrait, SampleMember>> = {};
  for (let index = 0; index < population.size && Object.keys(found).length < Object.keys(SAMPLE_TRAITS).length; index += 1) {
    const member = population.member(index);
    for (const [trait, matches] of Object.entries(SAMPLE_TRAITS) as Array<[SampleTrait, (member: Taxpayer) => boolean]>) {
      if (found[trait] === undefined && matches(member)) {
        found[trait] = sampleMember(index, member);
      }
    }
  }
  const require = (trait: SampleTrait): SampleMember => {
    const member = found[trait];
    if (member === undefined) throw new Error(`The population of seed ${options.seed} has no member with trait ${trait}`);
    return member;
  };
  return {
    individual: require('individual'),
    cuiOnlyIndividual: require('cuiOnlyIndividual'),
    legalEntity: require('legalEntity'),
    omiso: require('omiso'),
    coerciveCollection: require('coerciveCollection'),
    withoutHeldCopy: require('withoutHeldCopy'),
    withMissingFields: require('withMissingFields'),
    unknownNit: UNKNOWN_NIT,
    unknownCui: UNKNOWN_CUI,
  };
}

// Valid identifiers outside every range the population and the fault identifiers draw from.
const UNKNOWN_NIT = '900000015';
const UNKNOWN_CUI = '4000000160101';
