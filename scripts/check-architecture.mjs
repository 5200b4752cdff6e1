#!/usr/bin/env node
// The architecture check of `npm run lint`: dependency-cruiser's rules (.dependency-cruiser.cjs: layering, no file
// cycles, the console's type-only contract), then no import cycle between folders, which its rules can't express.
import { cruise } from 'dependency-cruiser';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs');
const roots = ['src-server', 'src-renderer', 'src-main'];

const result = await cruise(roots, {
  ...config.options,
  validate: true,
  ruleSet: { forbidden: config.forbidden },
});
const output = result.output;
let failures = 0;

for (const violation of output.summary.violations) {
  failures++;
  const path = violation.cycle ? violation.cycle.map((step) => step.name ?? step).join(' → ') : violation.to;
  console.error(`✖ ${violation.rule.name}: ${violation.from} → ${path}`);
}

/** Folder of a module: one level below the plane (`src-server/core/audit`), or the plane itself for its root files. */
function folderOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'src-server' && ['core', 'control', 'gateway'].includes(parts[1]) && parts.length > 3) {
    return parts.slice(0, 3).join('/');
  }
  return parts.length > 2 ? parts.slice(0, 2).join('/') : dirname(path);
}

const allowed = new Set((config.folderCycleExceptions ?? []).map((exception) => exception.edge));
const edges = new Map();
for (const module of output.modules) {
  if (!roots.some((root) => module.source.startsWith(`${root}/`))) continue;
  const from = folderOf(module.source);
  for (const dependency of module.dependencies) {
    if (!roots.some((root) => dependency.resolved.startsWith(`${root}/`))) continue;
    const to = folderOf(dependency.resolved);
    if (from === to || allowed.has(`${from} -> ${to}`)) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const examples = edges.get(from);
    if (!examples.has(to)) examples.set(to, `${module.source} → ${dependency.resolved}`);
  }
}

// Tarjan's strongly connected components: any component with more than one folder is a folder-level cycle.
let index = 0;
const indexOf = new Map();
const lowOf = new Map();
const stack = [];
const onStack = new Set();
function visit(node) {
  indexOf.set(node, index);
  lowOf.set(node, index++);
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node)?.keys() ?? []) {
    if (!indexOf.has(next)) {
      visit(next);
      lowOf.set(node, Math.min(lowOf.get(node), lowOf.get(next)));
    } else if (onStack.has(next)) {
      lowOf.set(node, Math.min(lowOf.get(node), indexOf.get(next)));
    }
  }
  if (lowOf.get(node) === indexOf.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) {
      failures++;
      console.error(`✖ folder cycle between ${component.sort().join(', ')}:`);
      for (const from of component) {
        for (const [to, example] of edges.get(from) ?? []) {
          if (component.includes(to)) console.error(`    ${from} → ${to} (e.g. ${example})`);
        }
      }
    }
  }
}
for (const node of edges.keys()) if (!indexOf.has(node)) visit(node);

if (failures > 0) {
  console.error(`\n${failures} architecture violation(s). The layout and its rules: docs/ARCHITECTURE.md.`);
  process.exit(1);
}
console.log(
  `✔ architecture: ${output.summary.totalCruised} modules, ${output.summary.totalDependenciesCruised} imports, no violation, no folder cycle`,
);
