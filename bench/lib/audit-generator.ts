import type { NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { AUDIT_ACTION_CATALOG, type GeneratorContext } from './audit-action-catalog.js';
import { createRandom, zipfSampler } from './random.js';

export { AUDIT_ACTION_CATALOG } from './audit-action-catalog.js';
export { createRandom, zipfSampler, type Random } from './random.js';

/**
 * Realistic, reproducible audit entries of an integration platform's audit trail: process lifecycle,
 * environment variables, configuration elements, roles and users, UI POSTs, task imports, process instance
 * acknowledgements and agent events. Users and actions follow Zipf-like popularity; timestamps are spread
 * over a window (60 days by default) in ascending order, the way a live trail grows.
 */
export interface AuditGeneratorOptions {
  count: number;
  /** Same seed, same entries. */
  seed?: number;
  /** Newest timestamp (epoch ms). Default: now. */
  endMs?: number;
  spanDays?: number;
  /** Number of distinct human users. */
  users?: number;
  /** Shuffle timestamps locally instead of strictly ascending (as an import of several files would). */
  shuffled?: boolean;
}

export function* generateAuditEntries(options: AuditGeneratorOptions): Generator<NewAuditEntry> {
  const random = createRandom(options.seed ?? 42);
  const endMs = options.endMs ?? Date.now();
  const spanMs = (options.spanDays ?? 60) * 86_400_000;
  const userCount = options.users ?? 250;
  const users = [
    ...Array.from(
      { length: userCount },
      (_, i) =>
        `${FIRST_NAMES[i % FIRST_NAMES.length]}.${LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]}${i >= FIRST_NAMES.length * LAST_NAMES.length ? i : ''}`,
    ),
    'app:ci-pipeline',
    'app:monitoring-sync',
  ];
  const pickUser = zipfSampler(users.length, 1.1, random);
  const pickAction = zipfSampler(AUDIT_ACTION_CATALOG.length, 1.0, random);
  const context: GeneratorContext = {
    random,
    pick: (items) => items[Math.floor(random() * items.length)]!,
    id: (prefix) => `${prefix}-${(Math.floor(random() * 0xffffffff) >>> 0).toString(16).padStart(8, '0')}`,
    processes: Array.from({ length: 400 }, (_, i) => ({
      id: `proc-${String(i).padStart(4, '0')}`,
      name: `${PROCESS_NAMES[i % PROCESS_NAMES.length]} ${i}`,
    })),
    agentGroups: Array.from({ length: 12 }, (_, i) => ({ id: `ag-${i + 1}`, name: `Agent group ${i + 1}` })),
  };
  const startMs = endMs - spanMs;
  const stepMs = spanMs / Math.max(1, options.count);
  let timeMs = startMs;
  for (let i = 0; i < options.count; i++) {
    timeMs += stepMs * 2 * random();
    const spec = AUDIT_ACTION_CATALOG[pickAction()]!;
    const { parameters, resources } = spec.build(context);
    const jitter = options.shuffled ? (random() - 0.5) * 3_600_000 : 0;
    const entry: NewAuditEntry = {
      actionName: spec.actionName,
      userName: spec.category === 'agent' ? 'system' : users[pickUser()]!,
      timestamp: new Date(Math.min(endMs, Math.round(timeMs + jitter))).toISOString(),
      parameters,
      resources,
      category: spec.category,
    };
    if (spec.category === 'agent') entry.agentGroup = context.pick(context.agentGroups);
    else entry.statusCode = random() < 0.97 ? 200 : context.pick([400, 403, 404, 409, 500]);
    yield entry;
  }
}

const FIRST_NAMES = [
  'anna',
  'ben',
  'chloe',
  'david',
  'emma',
  'finn',
  'greta',
  'hugo',
  'ida',
  'jonas',
  'klara',
  'lars',
  'mia',
  'noah',
  'olga',
  'paul',
];
const LAST_NAMES = [
  'berg',
  'meyer',
  'schmidt',
  'jansen',
  'novak',
  'rossi',
  'smith',
  'dubois',
  'larsen',
  'kowalski',
  'garcia',
  'muller',
  'weber',
  'fischer',
  'wagner',
  'becker',
];
const PROCESS_NAMES = [
  'Order sync',
  'Invoice export',
  'Customer import',
  'Stock update',
  'Payment reconciliation',
  'Shipment notice',
  'Price list',
  'HR master data',
];
