import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Tx } from './database.js';

/**
 * Queries whose SQL text follows from a plan's shape alone, built and compiled by Kysely once per shape: a later
 * query of the same shape runs that SQL with its own values. Building and compiling a list's statements took
 * ~15% of the server's CPU per request of GET /api/v1/audit-log (over 1M entries, every answer from a few index
 * ranges).
 *
 * A plan is plain objects and arrays. Its shape is what the SQL follows: which properties are set, booleans, the
 * length of arrays. Its strings and numbers are values: the builder gets a stand-in for each, which it may only
 * pass to Kysely as a value (never compare, compute with or inline it), and each stand-in must come out as a
 * parameter of the compiled statement (checked when a shape is first built).
 */
export async function runTemplated<R, P>(
  reader: Pick<Tx, 'executeQuery' | 'getExecutor'>,
  name: string,
  plan: P,
  build: (plan: P) => Compilable<R>,
): Promise<R[]> {
  const values: unknown[] = [];
  const shape = `${name}:${shapeOf(plan, values)}`;
  // Per dialect (the SQL differs), which the executor's adapter stands for: one per open database.
  const adapter = reader.getExecutor().adapter;
  let templates = templatesByAdapter.get(adapter);
  if (!templates) templatesByAdapter.set(adapter, (templates = new Map<string, Template>()));
  let template = templates.get(shape);
  if (!template) {
    template = templateOf(build(standIns(plan, { next: 0 }) as P), values.length, shape);
    if (templates.size >= MAX_TEMPLATES) templates.delete(templates.keys().next().value!);
    templates.set(shape, template);
  }
  const { compiled, slots } = template;
  const parameters = compiled.parameters.map((fixed, k) => {
    const slot = slots[k]!;
    return slot < 0 ? fixed : values[slot];
  });
  const result: QueryResult<R> = await reader.executeQuery<R>({ ...compiled, parameters });
  return result.rows;
}

/** Shapes are few (filters set, pieces of a range); the bound only keeps a mistake from growing the map. */
const MAX_TEMPLATES = 512;

interface Template {
  compiled: CompiledQuery;
  /** Per parameter of the compiled statement: the plan's value it takes, or -1 for one the builder fixed. */
  slots: number[];
}

const templatesByAdapter = new WeakMap<object, Map<string, Template>>();

/** Stands for the plan's value number `index` while a shape's statement is built. */
class StandIn {
  constructor(readonly index: number) {}
}

function templateOf(query: Compilable, valueCount: number, shape: string): Template {
  const compiled = query.compile();
  const used = new Set<number>();
  const slots = compiled.parameters.map((parameter) => {
    if (!(parameter instanceof StandIn)) return -1;
    used.add(parameter.index);
    return parameter.index;
  });
  if (used.size !== valueCount || compiled.sql.includes('[object Object]'))
    throw new Error(`Query template ${shape}: a value of the plan is not a parameter of the statement.`);
  return { compiled, slots };
}

/** The plan's shape as text, its values collected in order into `values`. */
function shapeOf(plan: unknown, values: unknown[]): string {
  if (typeof plan === 'string' || typeof plan === 'number' || typeof plan === 'bigint') {
    values.push(plan);
    return '$';
  }
  if (Array.isArray(plan)) return `[${plan.map((item) => shapeOf(item, values)).join(',')}]`;
  if (typeof plan === 'object' && plan !== null) {
    let text = '{';
    for (const key in plan) {
      const value = (plan as Record<string, unknown>)[key];
      if (value !== undefined) text += `${key}:${shapeOf(value, values)},`;
    }
    return `${text}}`;
  }
  return String(plan);
}

/** The plan with each value replaced by its stand-in, numbered in `shapeOf`'s order. */
function standIns(plan: unknown, counter: { next: number }): unknown {
  if (typeof plan === 'string' || typeof plan === 'number' || typeof plan === 'bigint')
    return new StandIn(counter.next++);
  if (Array.isArray(plan)) return plan.map((item) => standIns(item, counter));
  if (typeof plan === 'object' && plan !== null) {
    const copy: Record<string, unknown> = {};
    for (const key in plan) {
      const value = (plan as Record<string, unknown>)[key];
      if (value !== undefined) copy[key] = standIns(value, counter);
    }
    return copy;
  }
  return plan;
}
