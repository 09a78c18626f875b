// The deployment files, checked without a container engine or a cluster (neither runs in CI):
// compose.yaml against the Compose Specification's schema, the Kubernetes overlay rendered by
// `kubectl kustomize` against the API's schemas, and both against the app's own settings: what
// production refuses to start without is read from lib/platform/settings/env.ts, never copied here, and
// each file must hand every instance (and the migrations) an environment that passes it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Namespace, ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { EnvError } from '@/lib/platform/settings/fragment';
import { envSchema, parseEnv } from '@/lib/root/settings';
import { PRODUCTION } from '@/tests/support/production-env';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const COMPOSE_DIR = path.join(ROOT, 'deploy', 'compose');
const OVERLAY = path.join(ROOT, 'deploy', 'kubernetes', 'overlays', 'production');
const SCHEMAS = path.join(import.meta.dirname, 'schemas');

/** What the drain spends after SHUTDOWN_DRAIN_TIMEOUT_MS writing what it keeps in memory (lib/root/server/drain.mjs). */
const FLUSH_BEFORE_EXIT_MS = 3_000;

/** Variables of the compose project that are not the app's: the image, the servers' passwords, Caddy's host. */
const COMPOSE_ONLY_VARIABLES = ['GATEWAY_IMAGE', 'GATEWAY_VERSION', 'POSTGRES_PASSWORD', 'VALKEY_PASSWORD', 'PUBLIC_HOST'];
/** The gateway's services in compose.yaml: both instances and the migrations get the same settings. */
const COMPOSE_GATEWAY_SERVICES = ['app-1', 'app-2', 'migrate'];

/** The names a start refuses, for an environment that parseEnv rejects. */
function refusedNames(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
    return [];
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return error.problems.map((problem) => problem.split(':')[0]!);
  }
}

/** Every setting production refuses to start without, as the app itself says it (APP_ENV makes it production). */
const REQUIRED_IN_PRODUCTION = ['APP_ENV', ...refusedNames({ APP_ENV: 'production', NODE_ENV: 'production' })];
/** And the ones FEL adds when it is turned on, apart from those production needs anyway. */
const REQUIRED_WITH_FEL = refusedNames({ ...PRODUCTION, FEL_ENABLED: 'true' });
/** And the ones online payments add when they are turned on. */
const REQUIRED_WITH_PAYMENTS = refusedNames({ ...PRODUCTION, PAYMENTS_PROVIDER: 'recurrente' });
const APP_SETTINGS = new Set(Object.keys(envSchema.shape));

/** Every optional capability turned on, with values its start accepts: what an operator writes to turn them on. */
const CAPABILITIES_ON: Record<string, string> = {
  FEL_ENABLED: 'true',
  FEL_CERTIFIER_BASE_URL: 'https://certificador.example.gt',
  FEL_NIT_LOOKUP_BASE_URL: 'https://receptores.example.gt',
  FEL_SIGNING_USER: 'firma',
  FEL_SIGNING_KEY: 'llave-de-firma',
  FEL_API_USER: 'api',
  FEL_API_KEY: 'llave-api',
  FEL_ISSUER_COMMERCIAL_NAME: 'Consultas',
  FEL_ISSUER_ESTABLISHMENT: '1',
  FEL_ISSUER_AFFILIATION: 'GEN',
  ISSUER_POSTAL_CODE: '01009',
  ISSUER_MUNICIPALITY: 'Guatemala',
  ISSUER_DEPARTMENT: 'Guatemala',
  PAYMENTS_PROVIDER: 'recurrente',
  RECURRENTE_API_URL: 'https://app.recurrente.com/api',
  RECURRENTE_PUBLIC_KEY: 'pk_live_ejemplo',
  RECURRENTE_SECRET_KEY: 'sk_live_ejemplo',
  RECURRENTE_WEBHOOK_SECRET: `whsec_${Buffer.alloc(24, 3).toString('base64')}`,
  ALERT_EMAIL_TO: 'operaciones@example.gt',
  ALERT_EMAIL_FROM: 'alertas@example.gt',
  ALERT_SMTP_HOST: 'smtp.example.gt',
  ALERT_SMTP_USER: 'alertas',
  ALERT_SMTP_PASS: 'clave-smtp',
  ALERT_WEBHOOK_URL: 'https://hooks.example.gt/gateway',
  ALERT_WEBHOOK_SECRET: 'un-secreto-de-webhook-de-32-caracteres-o-mas',
  CONSOLE_OIDC_ISSUER: 'https://login.microsoftonline.com/6f1c0b8e-2a44-4d1e-9c57-3b0b5c6f7a10/v2.0',
  CONSOLE_OIDC_CLIENT_ID: 'consola-pasarela',
  CONSOLE_OIDC_CLIENT_SECRET: 'secreto-del-cliente',
  CONSOLE_OIDC_ADMIN_VALUES: 'grupo-administradores',
  CONSOLE_OIDC_SUPPORT_VALUES: 'grupo-soporte',
  CONSOLE_OIDC_ENTRA_TENANT_ID: '6f1c0b8e-2a44-4d1e-9c57-3b0b5c6f7a10',
  CONSOLE_BREAK_GLASS_EMAILS: 'emergencia@example.gt',
};
/** Settings that only development and the tests read (the embedded database, the simulator, a cheap hash): never a deployment's. */
const DEVELOPMENT_ONLY = ['PGLITE_DIR', 'PASSWORD_HASH_COST', 'SIMULATOR_PORT', 'SIMULATOR_SEED', 'INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS'];
/** Settings a deployment fixes for its own reasons (the migrations run apart, its proxy), whatever .env says. */
const FIXED_BY_COMPOSE = ['MIGRATE_ON_START', 'SEED_ON_START', 'TRUSTED_PROXY_HOPS'];

/** What an operator fills in where an example leaves a value empty: a production environment parseEnv accepts. */
const FILLED: Record<string, string> = {
  ...PRODUCTION,
  POSTGRES_PASSWORD: 'b3c1e2a4f5d6978a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e',
  VALKEY_PASSWORD: '9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddccbbaa9988',
  PUBLIC_HOST: new URL(PRODUCTION.NEXTAUTH_URL).host,
  TWO_FACTOR_ENCRYPTION_KEY: 'a-two-factor-key-of-at-least-32-characters',
  METRICS_TOKEN: 'a-metrics-token-of-32-characters',
};

describe('the settings production requires, read from lib/platform/settings/env.ts', () => {
  it('are found there: the database, the secrets, the sources, the journal, the issuer', () => {
    // The derivation itself: an empty production environment is refused for these, among others.
    expect(REQUIRED_IN_PRODUCTION).toEqual(expect.arrayContaining(['DATABASE_URL', 'NEXTAUTH_SECRET', 'RECORD_JOURNAL_DIR', 'PERSONAL_DATA_KEY', 'RENAP_BASE_URL', 'ISSUER_NIT']));
    expect(REQUIRED_WITH_FEL).toEqual(expect.arrayContaining(['FEL_CERTIFIER_BASE_URL', 'FEL_API_KEY', 'ISSUER_MUNICIPALITY']));
  });
});

// ---------------------------------------------------------------------------------------------
// Compose

/**
 * A .env file as Compose reads it: comments, quotes, and ${...} of the lines above. A value left
 * empty is taken from `fill`, when it has one, as an operator fills in the example.
 */
function readDotenv(file: string, fill: Record<string, string> = {}): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match) {
      expect(line.trim() === '' || line.trim().startsWith('#'), `${path.basename(file)}: a line Compose would not read: ${line}`).toBe(true);
      continue;
    }
    const [, name, raw] = match as unknown as [string, string, string];
    expect(values, `${path.basename(file)} sets ${name} twice`).not.toHaveProperty(name);
    if (raw.startsWith("'")) values[name] = raw.slice(1, raw.lastIndexOf("'"));
    else if (raw.startsWith('"')) values[name] = interpolate(raw.slice(1, raw.lastIndexOf('"')), values);
    else values[name] = interpolate(raw.replace(/\s+#.*$/, '').trim(), values);
    if (values[name] === '' && fill[name] !== undefined) values[name] = fill[name];
  }
  return values;
}

class MissingVariable extends Error {}

/** Compose's interpolation: $$, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}. */
function interpolate(text: string, variables: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (whole, name: string | undefined, operator: string | undefined, argument: string | undefined) => {
    if (whole === '$$') return '$';
    const value = variables[name!];
    const unset = operator?.startsWith(':') ? !value : value === undefined;
    if (!unset) return value!;
    if (operator?.endsWith('?')) throw new MissingVariable(`${name}: ${argument}`);
    return operator?.endsWith('-') ? argument! : '';
  });
}

function interpolateDocument(node: unknown, variables: Record<string, string>): unknown {
  if (typeof node === 'string') return interpolate(node, variables);
  if (Array.isArray(node)) return node.map((item) => interpolateDocument(item, variables));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateDocument(value, variables)]));
  return node;
}

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

const composeText = () => fs.readFileSync(path.join(COMPOSE_DIR, 'compose.yaml'), 'utf8');
/** compose.yaml with its anchors and merge keys applied, before interpolation. */
const composeSource = () => parse(composeText(), { merge: true }) as unknown;
/** The example's values, each empty one filled in as an operator would. */
function filledExample(): Record<string, string> {
  return readDotenv(path.join(COMPOSE_DIR, '.env.example'), FILLED);
}
function composeWith(variables: Record<string, string>): ComposeFile {
  return interpolateDocument(composeSource(), variables) as ComposeFile;
}

/** Seconds of a Compose duration such as 45s or 1m30s. */
function durationSeconds(text: string): number {
  const parts = [...text.matchAll(/(\d+)(h|ms|m|s)/g)];
  expect(parts.map((part) => part[0]).join(''), `a duration Compose reads: ${text}`).toBe(text);
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * { h: 3600, m: 60, s: 1, ms: 0.001 }[unit as 'h' | 'm' | 's' | 'ms'], 0);
}

describe('deploy/compose', () => {
  it('compose.yaml is valid by the Compose Specification\'s JSON schema, once .env is filled in', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'compose-spec.json'), 'utf8')) as object;
    // The schema's $schema names draft-07 without the trailing '#' Ajv registers it under.
    const validate = new Ajv({ strict: false, allErrors: true, validateSchema: false }).compile(schema);
    const compose = composeWith(filledExample());
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('.env.example lists every variable compose.yaml reads, and only those, each an app setting or one of the project\'s own', () => {
    const read = new Set([...composeText().matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!));
    const listed = Object.keys(readDotenv(path.join(COMPOSE_DIR, '.env.example')));
    expect([...read].filter((name) => !listed.includes(name)).sort(), 'read by compose.yaml, missing from .env.example').toEqual([]);
    expect(listed.filter((name) => !read.has(name)).sort(), 'in .env.example, never read by compose.yaml').toEqual([]);
    expect(listed.filter((name) => !APP_SETTINGS.has(name) && !COMPOSE_ONLY_VARIABLES.includes(name)).sort(), 'not a setting of lib/platform/settings/env.ts').toEqual([]);
  });

  it('every production setting is in .env.example (FEL\'s too) and reaches both instances and the migrations, whose environment passes the start\'s checks', () => {
    const listed = Object.keys(readDotenv(path.join(COMPOSE_DIR, '.env.example')));
    expect(REQUIRED_IN_PRODUCTION.filter((name) => !listed.includes(name)), 'required in production, missing from .env.example').toEqual([]);
    expect(REQUIRED_WITH_FEL.filter((name) => !listed.includes(name)), 'required with FEL_ENABLED=true, missing from .env.example').toEqual([]);
    const compose = composeWith(filledExample());
    for (const name of COMPOSE_GATEWAY_SERVICES) {
      const environment = compose.services[name]?.environment ?? {};
      expect(REQUIRED_IN_PRODUCTION.filter((setting) => !(setting in environment)), `${name}: required settings it is not given`).toEqual([]);
      expect(refusedNames({ ...environment, NODE_ENV: 'production' }), `${name}: settings its start would refuse`).toEqual([]);
    }
  });

  it('every optional capability is wired through (FEL, card payments, mail), and every other setting written in .env reaches both instances and the migrations as written', () => {
    const source = composeSource() as { services: Record<string, { env_file?: unknown }> };
    const turnedOn = { ...filledExample(), ...CAPABILITIES_ON };
    const compose = composeWith(turnedOn);
    expect(REQUIRED_WITH_PAYMENTS).toEqual(expect.arrayContaining(['RECURRENTE_SECRET_KEY', 'RECURRENTE_WEBHOOK_SECRET']));
    const listed = Object.keys(readDotenv(path.join(COMPOSE_DIR, '.env.example')));
    expect(REQUIRED_WITH_PAYMENTS.filter((name) => !listed.includes(name)), 'required with PAYMENTS_PROVIDER=recurrente, missing from .env.example').toEqual([]);
    for (const name of COMPOSE_GATEWAY_SERVICES) {
      // Compose passes every line of .env (env_file), under the settings it lists and checks.
      expect(source.services[name]?.env_file, `${name}: .env as its env_file`).toEqual([{ path: '.env', required: true }]);
      // Its root file system is read-only; it writes its journal (a volume) and in-memory /tmp and Next's cache.
      const service = compose.services[name] as ComposeService & { read_only?: boolean; tmpfs?: string[] };
      expect(service.read_only, `${name}: read_only`).toBe(true);
      expect(service.tmpfs?.map((mount) => mount.split(':')[0]), `${name}: tmpfs`).toContain('/tmp');
      const environment = { ...turnedOn, ...compose.services[name]!.environment };
      expect([...REQUIRED_WITH_FEL, ...REQUIRED_WITH_PAYMENTS].filter((setting) => !environment[setting]), `${name}: FEL's and payments' settings it is not given`).toEqual([]);
      expect(refusedNames({ ...environment, NODE_ENV: 'production' }), `${name}: with every capability on, settings its start would refuse`).toEqual([]);
      // Any setting of the app, written in .env, arrives as written: none is dropped or overridden but the deployment's own.
      const everySetting = Object.fromEntries([...APP_SETTINGS].filter((setting) => !DEVELOPMENT_ONLY.includes(setting)).map((setting) => [setting, `valor-de-${setting}`]));
      const passed = { ...everySetting, ...composeWith({ ...turnedOn, ...everySetting }).services[name]!.environment };
      const changed = Object.keys(everySetting).filter((setting) => passed[setting] !== everySetting[setting] && !FIXED_BY_COMPOSE.includes(setting));
      expect(changed, `${name}: settings .env cannot pass`).toEqual([]);
    }
  });

  it('a required setting left empty in .env stops `docker compose up` before anything starts, or the instance\'s start refuses it', () => {
    const filled = filledExample();
    for (const setting of REQUIRED_IN_PRODUCTION) {
      let refused: boolean;
      try {
        const environment = composeWith({ ...filled, [setting]: '' }).services['app-1']!.environment!;
        refused = refusedNames({ ...environment, NODE_ENV: 'production' }).includes(setting);
      } catch (error) {
        if (!(error instanceof MissingVariable)) throw error;
        refused = true;
      }
      expect(refused, `${setting} left empty`).toBe(true);
    }
  });

  it('two instances behind one proxy, each with its own journal volume, after the migrations, PostgreSQL and Valkey are ready', () => {
    const variables = filledExample();
    const compose = composeWith(variables);
    const journals = ['app-1', 'app-2'].map((name) => {
      const service = compose.services[name]!;
      const environment = service.environment!;
      expect(environment.TRUSTED_PROXY_HOPS, `${name}: one proxy, Caddy, in front`).toBe('1');
      expect(service.depends_on, name).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        valkey: { condition: 'service_healthy' },
      });
      // The image's health command: GET /api/health on the instance (deploy/image/gateway.sh).
      expect(service.healthcheck?.test, `${name}: its health check`).toEqual(['CMD', '/app/bin/gateway', 'health']);
      // The drain always ends on its own before Compose kills the container.
      expect(durationSeconds(service.stop_grace_period ?? '10s') * 1000, `${name}: stop_grace_period`).toBeGreaterThan(Number(environment.SHUTDOWN_DRAIN_TIMEOUT_MS) + FLUSH_BEFORE_EXIT_MS);
      const journal = (service.volumes ?? []).find((volume) => volume.split(':')[1] === environment.RECORD_JOURNAL_DIR);
      expect(journal, `${name}: a volume at RECORD_JOURNAL_DIR`).toBeDefined();
      const volumeName = journal!.split(':')[0]!;
      expect(compose.volumes, `${name}: its journal is a named volume`).toHaveProperty(volumeName);
      return volumeName;
    });
    expect(new Set(journals).size, 'each instance its own journal').toBe(2);
    expect(compose.services.migrate?.command).toEqual(['migrate']);
    expect(compose.services.migrate?.image).toBe(compose.services['app-1']?.image);
    expect(compose.services.proxy?.depends_on).toEqual({ 'app-1': { condition: 'service_healthy' }, 'app-2': { condition: 'service_healthy' } });
    expect(compose.services.postgres?.image).toMatch(/^postgres:15\.\d+/);
    expect(compose.services.proxy?.environment?.PUBLIC_HOST, 'Caddy\'s host is NEXTAUTH_URL\'s').toBe(new URL(variables.NEXTAUTH_URL!).host);
    // Caddy sends to both instances and sets X-Forwarded-For from the address it saw: with
    // trusted_proxies it would pass on what a client claims, and the app would trust it.
    const caddyfile = fs.readFileSync(path.join(COMPOSE_DIR, 'Caddyfile'), 'utf8').replace(/#.*$/gm, '');
    expect(caddyfile).toMatch(/reverse_proxy app-1:3000 app-2:3000/);
    expect(caddyfile).toMatch(/health_uri \/api\/health/);
    expect(caddyfile).not.toMatch(/trusted_proxies/);
  });
});

// ---------------------------------------------------------------------------------------------
// Kubernetes

interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
}
interface Container {
  name: string;
  args?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
}

/** `kubectl kustomize` of the production overlay: offline, the same as `kubectl apply -k` would send. */
function renderOverlay(): KubernetesObject[] {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', OVERLAY], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('kubectl is needed to render deploy/kubernetes (kubectl kustomize): install it (Kustomize v5, kubectl 1.27 or later)');
    throw error;
  }
  return parseAllDocuments(output).map((document) => document.toJSON() as KubernetesObject);
}

/** The API's own kinds, validated with kubernetes-models' schemas (the API's OpenAPI definitions). */
const API_MODELS: Record<string, { validate(data: unknown): void }> = {
  'v1/Namespace': { validate: (data) => new Namespace(data as never).validate() },
  'v1/ConfigMap': { validate: (data) => new ConfigMap(data as never).validate() },
  'v1/Service': { validate: (data) => new Service(data as never).validate() },
  'apps/v1/Deployment': { validate: (data) => new Deployment(data as never).validate() },
  'apps/v1/StatefulSet': { validate: (data) => new StatefulSet(data as never).validate() },
  'networking.k8s.io/v1/Ingress': { validate: (data) => new Ingress(data as never).validate() },
  'policy/v1/PodDisruptionBudget': { validate: (data) => new PodDisruptionBudget(data as never).validate() },
  'autoscaling/v2/HorizontalPodAutoscaler': { validate: (data) => new HorizontalPodAutoscaler(data as never).validate() },
};

/**
 * CloudNativePG's Cluster by its CRD's schema, strict as the API server's field validation is: a
 * field the CRD does not define is refused, not pruned in silence.
 */
function cloudNativePgClusterValidator(): ValidateFunction {
  const strict = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strict);
    if (!node || typeof node !== 'object') return node;
    const schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([name, property]) => [name, strict(property)])) : strict(value)]));
    if (schema.properties && schema.additionalProperties === undefined && !schema['x-kubernetes-preserve-unknown-fields']) schema.additionalProperties = false;
    return schema;
  };
  const schema = strict(JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'cloudnative-pg-cluster-v1.json'), 'utf8'))) as { properties: Record<string, unknown> };
  // apiVersion, kind and metadata are the API server's to check; a CRD's schema leaves them open.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (value: number) => Number.isInteger(value) && Math.abs(value) < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  return ajv.compile(schema);
}

/** The keys CloudNativePG writes into a Cluster's `<name>-app` secret (pkg/specs/secrets.go). */
const CLOUDNATIVE_PG_APP_SECRET_KEYS = ['username', 'password', 'host', 'port', 'dbname', 'uri', 'fqdn-uri', 'jdbc-uri', 'fqdn-jdbc-uri', 'pgpass'];

function only<T extends KubernetesObject>(objects: KubernetesObject[], kind: string): T {
  const found = objects.filter((object) => object.kind === kind);
  expect(found.map((object) => object.metadata.name), `one ${kind}`).toHaveLength(1);
  return found[0] as T;
}

interface StatefulSetObject extends KubernetesObject {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: { terminationGracePeriodSeconds?: number; initContainers?: Container[]; containers: Container[] } };
    volumeClaimTemplates?: Array<{ metadata: { name: string } }>;
  };
}

describe('deploy/kubernetes (overlays/production, rendered by kubectl kustomize)', () => {
  const objects = renderOverlay();
  const byKind = (kind: string) => objects.filter((object) => object.kind === kind);
  const gateway = () => objects.find((object) => object.kind === 'StatefulSet' && object.metadata.name === 'gateway') as StatefulSetObject;
  const configMap = () => only<KubernetesObject & { data: Record<string, string> }>(objects, 'ConfigMap');
  const secretsExample = () => readDotenv(path.join(OVERLAY, 'secrets.env.example'));

  it('renders the instances, their Service, Ingress, disruption budget, autoscaler and settings, PostgreSQL and Valkey', () => {
    expect(objects.map((object) => `${object.kind}/${object.metadata.name}`).sort()).toEqual(
      expect.arrayContaining(['StatefulSet/gateway', 'Service/gateway', 'Ingress/gateway', 'PodDisruptionBudget/gateway', 'HorizontalPodAutoscaler/gateway', 'Cluster/gateway-db', 'Deployment/gateway-valkey']),
    );
  });

  it('every rendered object is valid by its kind\'s schema: the Kubernetes API\'s, and CloudNativePG\'s CRD for the Cluster', () => {
    const cluster = cloudNativePgClusterValidator();
    const problems: string[] = [];
    for (const object of objects) {
      const key = `${object.apiVersion}/${object.kind}`;
      if (key === 'postgresql.cnpg.io/v1/Cluster') {
        // (Through unknown: the validator is a type guard, and would narrow the object to never.)
        if (!cluster(object as unknown)) problems.push(`${key} ${object.metadata.name}: ${JSON.stringify(cluster.errors)}`);
        continue;
      }
      const model = API_MODELS[key];
      if (!model) {
        problems.push(`${key} ${object.metadata.name}: no schema to check it against (add its kubernetes-models class here)`);
        continue;
      }
      try {
        model.validate(object);
      } catch (error) {
        problems.push(`${key} ${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every production setting reaches the instances and the migrations, from the ConfigMap or the Secret, and their environment passes the start\'s checks', () => {
    const data = configMap().data;
    const secrets = secretsExample();
    const cluster = only(objects, 'Cluster').metadata.name;
    const pod = gateway().spec.template.spec;
    for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
      const environment: Record<string, string> = { NODE_ENV: 'production' };
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef) {
          expect(source.configMapRef.name, `${container.name}: its ConfigMap is the rendered one`).toBe(configMap().metadata.name);
          Object.assign(environment, data);
        } else {
          expect(source.secretRef?.name, `${container.name}: the operator's Secret`).toBe('gateway-secrets');
          Object.assign(environment, Object.fromEntries(Object.entries(secrets).map(([name, value]) => [name, value || FILLED[name] || ''])));
        }
      }
      for (const variable of container.env ?? []) {
        const secret = variable.valueFrom?.secretKeyRef;
        if (secret) {
          // Either the operator's Secret (its keys in secrets.env.example) or the one CloudNativePG writes for the Cluster.
          if (secret.name === 'gateway-secrets') expect(Object.keys(secrets), `${container.name}: ${variable.name}`).toContain(secret.key);
          else {
            expect(secret.name, `${container.name}: ${variable.name} from the Cluster's application secret`).toBe(`${cluster}-app`);
            expect(CLOUDNATIVE_PG_APP_SECRET_KEYS).toContain(secret.key);
          }
          environment[variable.name] = variable.name === 'DATABASE_URL' ? `postgresql://gateway:secret@${cluster}-rw.taxpayer-gateway:5432/gateway` : FILLED[variable.name] ?? 'from-a-secret';
        } else {
          expect(variable.valueFrom, `${container.name}: ${variable.name} from a source this test reads`).toBeUndefined();
          environment[variable.name] = variable.value ?? '';
        }
      }
      expect(REQUIRED_IN_PRODUCTION.filter((name) => !(name in environment)), `${container.name}: required settings it is not given`).toEqual([]);
      expect(refusedNames(environment), `${container.name}: settings its start would refuse`).toEqual([]);
    }
    expect(pod.initContainers?.map((container) => [container.name, container.args])).toEqual([['migrate', ['migrate']]]);
    expect(Object.keys(secrets).filter((name) => !APP_SETTINGS.has(name) && name !== 'VALKEY_PASSWORD'), 'secrets.env.example: not settings of lib/platform/settings/env.ts').toEqual([]);
  });

  it('every optional capability is wired through: its settings commented out in the overlay\'s config.env and Secret example, on, pass the start\'s checks', () => {
    const uncommented = (file: string) =>
      Object.fromEntries(
        fs
          .readFileSync(path.join(OVERLAY, file), 'utf8')
          .split('\n')
          .map((line) => /^#\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
          .filter((match): match is RegExpExecArray => match !== null)
          .map((match) => [match[1]!, match[2]!]),
      );
    const config = uncommented('config.env');
    const secrets = uncommented('secrets.env.example');
    expect(Object.keys({ ...config, ...secrets }).filter((name) => !APP_SETTINGS.has(name)), 'commented lines that are not settings').toEqual([]);
    const offered = new Set([...Object.keys(config), ...Object.keys(secrets)]);
    expect([...REQUIRED_WITH_FEL, ...REQUIRED_WITH_PAYMENTS].filter((name) => !offered.has(name) && !(name in configMap().data) && !(name in secretsExample())), 'FEL\'s and payments\' settings the overlay does not offer').toEqual([]);
    const environment = {
      NODE_ENV: 'production',
      ...configMap().data,
      ...Object.fromEntries(Object.entries(secretsExample()).map(([name, value]) => [name, value || FILLED[name] || ''])),
      DATABASE_URL: FILLED.DATABASE_URL!,
      ...config,
      ...Object.fromEntries(Object.keys(secrets).map((name) => [name, CAPABILITIES_ON[name] ?? 'de-un-secreto'])),
    };
    expect(refusedNames(environment), 'with FEL and payments on, settings the start would refuse').toEqual([]);
  });

  it('every container runs with a read-only root file system, writing only where a volume is mounted', () => {
    const pod = gateway().spec.template.spec as StatefulSetObject['spec']['template']['spec'] & { volumes?: Array<{ name: string }> };
    for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
      const context = (container as Container & { securityContext?: { readOnlyRootFilesystem?: boolean } }).securityContext;
      expect(context?.readOnlyRootFilesystem, `${container.name}: readOnlyRootFilesystem`).toBe(true);
      expect(container.volumeMounts?.map((mount) => mount.mountPath), `${container.name}: /tmp writable`).toContain('/tmp');
    }
    const app = pod.containers.find((container) => container.name === 'gateway')!;
    expect(app.volumeMounts?.map((mount) => mount.mountPath).sort()).toEqual(['/app/.next/cache', '/tmp', configMap().data.RECORD_JOURNAL_DIR].sort());
    for (const other of byKind('Deployment') as Array<KubernetesObject & { spec: { template: { spec: { containers: Array<{ name: string; securityContext?: { readOnlyRootFilesystem?: boolean } }> } } } }>) {
      for (const container of other.spec.template.spec.containers) expect(container.securityContext?.readOnlyRootFilesystem, `${other.metadata.name}/${container.name}: readOnlyRootFilesystem`).toBe(true);
    }
  });

  it('the drain ends before the kill, the probes ask the app\'s own endpoints, and each instance keeps its journal on a volume of its own', () => {
    const data = configMap().data;
    const statefulSet = gateway();
    const pod = statefulSet.spec.template.spec;
    expect((pod.terminationGracePeriodSeconds ?? 30) * 1000, 'terminationGracePeriodSeconds').toBeGreaterThan(Number(data.SHUTDOWN_DRAIN_TIMEOUT_MS) + FLUSH_BEFORE_EXIT_MS);
    const app = pod.containers.find((container) => container.name === 'gateway')!;
    const ports = (app.ports ?? []).flatMap((port) => [port.name, port.containerPort]);
    for (const probe of [app.readinessProbe, app.livenessProbe]) {
      expect(['/api/health', '/api/ready']).toContain(probe?.httpGet?.path);
      expect(ports).toContain(probe?.httpGet?.port);
    }
    expect(app.ports?.map((port) => port.containerPort)).toEqual([3000]);
    const journal = app.volumeMounts?.find((mount) => mount.mountPath === data.RECORD_JOURNAL_DIR);
    expect(journal, 'a volume at RECORD_JOURNAL_DIR').toBeDefined();
    expect(statefulSet.spec.volumeClaimTemplates?.map((claim) => claim.metadata.name), 'the journal: a claim per instance').toContain(journal!.name);
    expect(data.TRUSTED_PROXY_HOPS, 'the ingress controller, one proxy').toBe('1');
  });

  it('the Service, disruption budget and autoscaler reach the instances, and the autoscaler\'s ceiling fits PostgreSQL\'s connections', () => {
    const statefulSet = gateway();
    const podLabels = statefulSet.spec.template.metadata.labels;
    const selects = (selector: Record<string, string> | undefined) => Object.entries(selector ?? {}).length > 0 && Object.entries(selector ?? {}).every(([key, value]) => podLabels[key] === value);
    const service = byKind('Service').find((object) => object.metadata.name === 'gateway') as KubernetesObject & { spec: { selector: Record<string, string> } };
    expect(selects(service.spec.selector), 'Service gateway selects the instances').toBe(true);
    const ingress = only<KubernetesObject & { spec: { rules: Array<{ http: { paths: Array<{ backend: { service: { name: string } } }> } }> } }>(objects, 'Ingress');
    expect(ingress.spec.rules.flatMap((rule) => rule.http.paths.map((route) => route.backend.service.name))).toEqual(['gateway']);
    const budget = only<KubernetesObject & { spec: { selector: { matchLabels: Record<string, string> } } }>(objects, 'PodDisruptionBudget');
    expect(selects(budget.spec.selector.matchLabels), 'the disruption budget counts the instances').toBe(true);
    const autoscaler = only<KubernetesObject & { spec: { scaleTargetRef: { kind: string; name: string }; maxReplicas: number } }>(objects, 'HorizontalPodAutoscaler');
    expect(autoscaler.spec.scaleTargetRef).toMatchObject({ kind: 'StatefulSet', name: 'gateway' });
    // Each instance holds DATABASE_POOL_MAX connections and one more for LISTEN (docs/operations.md, "PostgreSQL").
    const cluster = only<KubernetesObject & { spec: { postgresql: { parameters: Record<string, string> } } }>(objects, 'Cluster');
    const perInstance = Number(configMap().data.DATABASE_POOL_MAX) + 1;
    expect(autoscaler.spec.maxReplicas * perInstance, 'the most instances × their connections, below max_connections').toBeLessThan(Number(cluster.spec.postgresql.parameters.max_connections));
  });

  it('no Bitnami image anywhere: the deployment files name only the projects\' own images', () => {
    const rendered = JSON.stringify(objects);
    expect(rendered).not.toMatch(/bitnami/i);
    expect(composeText()).not.toMatch(/bitnami/i);
  });
});
