// Prints the ten slowest test files at the end of a run (issue 31: the next person sees where the
// suite's time goes, and which file to make faster first). The time is the file's own: setup,
// collection and its tests and hooks, as vitest measured them in the worker.
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => {
        const diagnostic = module.diagnostic();
        const seconds = (diagnostic.setupDuration + diagnostic.collectDuration + diagnostic.duration) / 1000;
        return { file: module.relativeModuleId, seconds, tests: [...module.children.allTests()].length };
      })
      .sort((a, b) => b.seconds - a.seconds);
    if (timed.length < 2) return;
    const total = timed.reduce((sum, entry) => sum + entry.seconds, 0);
    const lines = timed.slice(0, SHOWN).map((entry) => `  ${entry.seconds.toFixed(1).padStart(7)} s  ${String(entry.tests).padStart(3)} tests  ${entry.file}`);
    console.log(`\nThe ${Math.min(SHOWN, timed.length)} slowest of ${timed.length} test files (${total.toFixed(0)} s of file time in all, spread over the workers):\n${lines.join('\n')}\n`);
  }
}
