#!/usr/bin/env node
// `npm run typecheck`: tsc over each TypeScript project, as many at once as the machine has cores.
// One after another they took 70–80 s on two cores, each tsc using one; two at a time keep both busy.
// Each project's output is printed whole when it ends, so errors are not interleaved.
import { spawn } from 'node:child_process';
import os from 'node:os';

// The largest first, so the small ones fill in beside them rather than one large one running last alone.
const PROJECTS = [
  'apps/server',
  'apps/web',
  'packages/domain/tsconfig.test.json',
  'bench',
  'e2e',
  'packages/domain',
  'apps/web/tsconfig.node.json',
];
const tsc = new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname;

function check(project) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [tsc, '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      console.log(`tsc -p ${project}: ${code === 0 ? 'ok' : 'FAILED'} in ${seconds} s`);
      if (output) process.stdout.write(output);
      resolve(code === 0);
    });
  });
}

const queue = [...PROJECTS];
const results = [];
const worker = async () => {
  for (let project = queue.shift(); project; project = queue.shift()) results.push(await check(project));
};
await Promise.all(Array.from({ length: Math.min(os.availableParallelism(), PROJECTS.length) }, worker));
process.exit(results.every(Boolean) ? 0 : 1);
