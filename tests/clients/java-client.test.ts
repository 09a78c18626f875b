// The Java client library (clients/java, issue 69): its models, its table of the contract's messages
// and its pom.xml are what the app's OpenAPI document generates; clients/java/build.sh builds its jar
// with the JDK's javac and jar against Debian's Jackson, a directory of its own gets that jar alone,
// and the shared scenario (tests/clients/scenario.ts, its steps in tests/clients/Escenario.java)
// runs there against the built app and the simulator.
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { describeScenario } from './scenario';

const run = promisify(execFile);
const SCENARIO = path.join(process.cwd(), 'tests', 'clients', 'Escenario.java');
const version = () => /<artifactId>cliente<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(readFileSync('clients/java/pom.xml', 'utf8'))![1]!;
/** Debian's Jackson (.ci/run installs default-jdk-headless and libjackson2-databind-java). */
const JACKSON = ['jackson-databind', 'jackson-core', 'jackson-annotations'].map((name) => `/usr/share/java/${name}.jar`);

let workDirectory: string | undefined;
let project: string;
let classPath: string;
/** The scenario's one JVM, started with the first step: a JVM's start cost 1-3 s a step on CI's two cores. */
let scenario: { child: ChildProcessWithoutNullStreams; lines: AsyncIterator<string> } | undefined;

describeScenario(
  {
    name: 'the Java client library',
    login: 'cliente-java',
    baseUrlName: 'baseUrl',
    // It reads an answer as the generated model too.
    alsoAnswers: { consultas: (gateway) => ({ modelo_omisos: gateway.sample.individual.nit }) },
    version,
    async install() {
      workDirectory = await mkdtemp(path.join(tmpdir(), 'cliente-java-'));
      const { stdout } = await run(path.join(process.cwd(), 'clients', 'java', 'build.sh'), [path.join(workDirectory, 'target')]);
      const jar = stdout.trim();
      expect(path.basename(jar)).toBe(`cliente-${version()}.jar`);
      project = path.join(workDirectory, 'proyecto');
      await mkdir(path.join(project, 'lib'), { recursive: true });
      await copyFile(jar, path.join(project, 'lib', path.basename(jar)));
      const libraries = [path.join('lib', path.basename(jar)), ...JACKSON].join(':');
      // Compiled once against the installed jar: the single-file launcher compiled it again for every step.
      await run('javac', ['-encoding', 'UTF-8', '-cp', libraries, '-d', 'escenario', SCENARIO], { cwd: project });
      classPath = `${libraries}:escenario`;
    },
    async run(step, data) {
      if (!scenario) {
        const child = spawn('java', ['-cp', classPath, 'Escenario'], { cwd: project });
        child.stderr.pipe(process.stderr);
        scenario = { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
      }
      scenario.child.stdin.write(`${step}\t${JSON.stringify(data)}\n`);
      const line = await scenario.lines.next();
      if (line.done) throw new Error(`the scenario's JVM ended before answering ${step}`);
      const answer = JSON.parse(line.value) as { falla?: unknown } | null;
      if (answer && typeof answer.falla === 'string') throw new Error(`${step}: ${answer.falla}`);
      return answer;
    },
    async cleanup() {
      scenario?.child.stdin.end();
      if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
    },
  },
  () => {
    it('has its models as Jackson-annotated classes, by the contract’s field names', () => {
      const model = readFileSync('clients/java/src/main/java/gt/pasarela/contribuyentes/modelos/Cuenta.java', 'utf8');
      expect(model).toContain('@JsonProperty("saldo_centavos")');
    });
  },
);
