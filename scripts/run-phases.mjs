#!/usr/bin/env node
// `npm test`: the suite's phases one after another, each line saying how long it took and how long
// the run has taken so far, and a table of them at the end. Stops at the first phase that fails.
// The figures are what docs/testing.md records; CI (.ci/run) prints them in its log.
import { spawnSync } from 'node:child_process';

const PHASES = [
  ['system packages', 'node', ['scripts/ensure-system-deps.mjs']],
  ['lint', 'npm', ['run', 'lint']],
  ['types', 'npm', ['run', 'typecheck']],
  ['unit and server suites', 'npm', ['run', 'test:unit']],
  ['browser journeys', 'npm', ['run', 'test:e2e']],
];

const started = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const clock = () => {
  const s = Math.round((performance.now() - started) / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};
const done = [];
for (const [name, command, args] of PHASES) {
  console.log(`\n=== [${clock()}] ${name}: ${command} ${args.join(' ')}`);
  const t0 = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit' });
  const took = performance.now() - t0;
  done.push([name, took, result.status === 0]);
  console.log(`=== [${clock()}] ${name}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${seconds(took)}`);
  if (result.status !== 0) break;
}
console.log('\nphase                       time');
for (const [name, took, ok] of done) console.log(`${name.padEnd(27)} ${seconds(took).padStart(6)}${ok ? '' : '  FAILED'}`);
console.log(`${'total'.padEnd(27)} ${seconds(performance.now() - started).padStart(6)}`);
process.exit(done.every(([, , ok]) => ok) && done.length === PHASES.length ? 0 : 1);
