#!/usr/bin/env node
// `npm run typecheck`: the four TypeScript projects, as many at a time as the machine has cores. tsc checks on one
// thread; one after another they took ~90 s of CPU and as long on the clock, on CI's 2 cores half of that.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const PROJECTS = [
  'tsconfig.server.json',
  'tsconfig.main.json',
  'tsconfig.renderer.json',
  'tsconfig.test.json',
];

/** Runs tsc on one project; its output is printed in one piece once it ends, so projects do not interleave. */
function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--noEmit'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      if (output) process.stdout.write(output);
      if (code !== 0) process.stdout.write(`tsc -p ${project}: exit code ${code}\n`);
      resolve(code === 0);
    });
  });
}

const queue = [...PROJECTS];
let failed = false;
const lanes = Array.from({ length: Math.min(availableParallelism(), PROJECTS.length) }, async () => {
  for (let project = queue.shift(); project; project = queue.shift())
    if (!(await check(project))) failed = true;
});
await Promise.all(lanes);
process.exitCode = failed ? 1 : 0;
