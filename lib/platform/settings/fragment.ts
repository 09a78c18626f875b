import { z } from 'zod';
import { processSlot } from '@/lib/platform/runtime/process-state';
import { emptyAsUnset } from './values';

// A capability declares its settings beside its code: their schema, what development gives them
// when unset, the rules between them (production's among them) and a line of documentation each.
// The composition root (lib/root/settings.ts) lists every capability's and checks them all at the
// start, so a wrong or missing variable still stops it with a message that names the variable.

export type SettingsSource = Record<string, string | undefined>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/**
 * development or production, as the variables say. A built app runs with NODE_ENV=production:
 * forgetting APP_ENV there must not make it a development deployment that seeds demo credentials
 * and prints them. Anything else is refused by APP_ENV's own schema.
 */
export function appEnvOf(source: SettingsSource): string {
  return (emptyAsUnset(source.APP_ENV) as string | undefined) ?? (source.NODE_ENV === 'production' ? 'production' : 'development');
}

type Values = Record<string, unknown>;

export interface SettingsFragment<Settings> {
  readonly title: string;
  readonly shape: z.ZodRawShape;
  /** One line per setting for docs/operations.md's table. */
  readonly docs: Readonly<Record<keyof Settings & string, string>>;
  /** The fragments whose settings this one's rules read. */
  readonly uses: readonly SettingsFragment<unknown>[];
  /** What stands for a setting before its schema reads it: development's defaults, an old name's value. */
  readonly input: (source: SettingsSource, appEnv: string) => Values;
  readonly refine: (settings: Values, ctx: z.RefinementCtx, appEnv: string) => void;
  /** Problems only the variables as given show (an old name beside another, a URL production must name). */
  readonly sourceProblems: (source: SettingsSource, appEnv: string) => string[];
  /** These settings, and those of the fragments they use, read from `source`; throws EnvError naming each wrong one. */
  read(source: SettingsSource): Settings;
  /** This process's, read from process.env on first use. */
  current(): Settings;
}

export type SettingsOf<Fragment> = Fragment extends SettingsFragment<infer Settings> ? Settings : never;

type Intersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (value: infer Both) => void ? Both : never;
/** The settings of every fragment of a list, as one object. */
export type SettingsOfAll<Fragments extends readonly SettingsFragment<unknown>[]> = Intersection<SettingsOf<Fragments[number]>>;

interface Definition<Shape extends z.ZodRawShape, Uses extends readonly SettingsFragment<unknown>[]> {
  title: string;
  shape: Shape;
  docs: { readonly [Name in keyof Shape]: string };
  uses?: Uses;
  input?: (source: SettingsSource, appEnv: string) => { [Name in keyof Shape]?: unknown };
  refine?: (settings: z.output<z.ZodObject<Shape>> & SettingsOfAll<Uses>, ctx: z.RefinementCtx, appEnv: string) => void;
  sourceProblems?: (source: SettingsSource, appEnv: string) => string[];
}

export function defineSettings<const Shape extends z.ZodRawShape, const Uses extends readonly SettingsFragment<unknown>[] = []>(
  definition: Definition<Shape, Uses>,
): SettingsFragment<z.output<z.ZodObject<Shape>>> {
  type Settings = z.output<z.ZodObject<Shape>>;
  const fragment: SettingsFragment<Settings> = {
    title: definition.title,
    shape: definition.shape,
    docs: definition.docs as SettingsFragment<Settings>['docs'],
    uses: definition.uses ?? [],
    input: (source, appEnv) => definition.input?.(source, appEnv) ?? {},
    refine: (settings, ctx, appEnv) => definition.refine?.(settings as Settings & SettingsOfAll<Uses>, ctx, appEnv),
    sourceProblems: (source, appEnv) => definition.sourceProblems?.(source, appEnv) ?? [],
    read: (source) => readSettings([fragment], source) as Settings,
    current: () => currentSettings(alone) as Settings,
  };
  const alone = [fragment] as const;
  return fragment;
}

/** The fragments and, before each, those it uses: each once. */
function withWhatTheyUse(fragments: readonly SettingsFragment<unknown>[]): SettingsFragment<unknown>[] {
  const all: SettingsFragment<unknown>[] = [];
  const add = (fragment: SettingsFragment<unknown>) => {
    if (all.includes(fragment)) return;
    fragment.uses.forEach(add);
    all.push(fragment);
  };
  fragments.forEach(add);
  return all;
}

/** The names of the settings of `fragments` and of those they use. */
function settingNames(fragments: readonly SettingsFragment<unknown>[]): string[] {
  return withWhatTheyUse(fragments).flatMap((fragment) => Object.keys(fragment.shape));
}

/**
 * Reads the settings of `fragments` from `source` as one object, every rule seeing the others'
 * settings; throws EnvError naming each wrong or missing variable. A setting left unset is a key
 * of the result all the same, so the process's settings say which fragments were read.
 */
export function readSettings<const Fragments extends readonly SettingsFragment<unknown>[]>(fragments: Fragments, source: SettingsSource): SettingsOfAll<Fragments> {
  const all = withWhatTheyUse(fragments);
  const appEnv = appEnvOf(source);
  const shape: z.ZodRawShape = Object.assign({}, ...all.map((fragment) => fragment.shape));
  const input: Values = Object.assign({ ...source }, ...all.map((fragment) => fragment.input(source, appEnv)));
  const schema = z.object(shape).superRefine((settings, ctx) => {
    for (const fragment of all) fragment.refine(settings, ctx, appEnv);
  });
  const result = schema.safeParse(input);
  const problems = [
    ...(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)),
    ...all.flatMap((fragment) => fragment.sourceProblems(source, appEnv)),
  ];
  if (!result.success || problems.length > 0) throw new EnvError(problems);
  return Object.fromEntries(Object.keys(shape).map((name) => [name, result.data[name]])) as SettingsOfAll<Fragments>;
}

/**
 * The process's settings of `fragments`, read from process.env the first time one is asked for and
 * kept for the process's life. They share one record, so that forgetting it (a test changing
 * process.env) forgets them all.
 */
export function currentSettings<const Fragments extends readonly SettingsFragment<unknown>[]>(fragments: Fragments): SettingsOfAll<Fragments> {
  const settings = processSlot<Values>('env', () => ({}));
  // Asked on every lookup, several times: once a record holds a fragment's settings, it is known to.
  let held = fragmentsHeld.get(settings);
  if (!held) fragmentsHeld.set(settings, (held = new WeakSet()));
  if (fragments.every((fragment) => held.has(fragment))) return settings as SettingsOfAll<Fragments>;
  if (!settingNames(fragments).every((name) => name in settings)) {
    for (const [name, value] of Object.entries(readSettings(fragments, process.env) as Values)) if (!(name in settings)) settings[name] = value;
  }
  for (const fragment of fragments) held.add(fragment);
  return settings as SettingsOfAll<Fragments>;
}

/** The fragments each record of settings is known to hold (a test's new record starts with none). */
const fragmentsHeld = new WeakMap<Values, WeakSet<SettingsFragment<unknown>>>();
