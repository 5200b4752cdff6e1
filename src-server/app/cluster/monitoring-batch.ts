import type { NewMonitoringRecord } from '../../core/monitoring/monitoring-record.js';

/**
 * A batch of monitoring records as a gateway worker sends it to its primary: columns of typed arrays and one table
 * of the batch's distinct strings, instead of one object per record.
 *
 * Every request a worker serves crosses the IPC channel as a record. Sent as objects, node:cluster's structured
 * clone cost the worker ~4.5 µs per record to write and the primary ~10 µs to read (JSON: 4.7 and 5.4), on top of
 * the ~110 µs the request itself costs: the largest cost only `serve --workers` pays. Typed arrays are copied
 * as raw bytes, and the strings a batch repeats (agent group, API, path, target, client, identity, instance) are
 * sent once.
 *
 * A record the columns cannot hold as it is (a captured exchange, a value of an unexpected type) travels whole.
 * A field added to the record type fails to compile here until it has a column or is declared whole-only.
 */
export interface MonitoringBatch {
  count: number;
  /** The batch's distinct strings; the columns point into it. */
  strings: string[];
  /** `count × TEXT_FIELDS.length` indexes into `strings`, record by record; -1 where the field is absent. */
  text: Int32Array;
  /** `count × NUMBER_FIELDS.length` values, record by record. */
  numbers: Float64Array;
  /** `viaAllOperations`: -1 absent, 0 false, 1 true. */
  flags: Int8Array;
  /** Each record's traceparent as an index into `strings`, -1 without one. */
  traceparents: Int32Array;
  /** Records sent whole, by position in the batch. */
  whole: [position: number, record: NewMonitoringRecord][];
}

type KeysOf<T, V> = { [K in keyof T]-?: Exclude<T[K], undefined> extends V ? K : never }[keyof T];

const TEXT_FIELDS = [
  'time',
  'agentGroupId',
  'agentGroupName',
  'method',
  'path',
  'apiId',
  'apiName',
  'operation',
  'targetUrl',
  'outcome',
  'clientIp',
  'identity',
  'reason',
  'instance',
] as const satisfies readonly KeysOf<NewMonitoringRecord, string>[];

const NUMBER_FIELDS = ['status', 'durationMs', 'bytesIn', 'bytesOut'] as const satisfies readonly KeysOf<
  NewMonitoringRecord,
  number
>[];

/** Fields the columns never hold: a record with one of them travels whole. */
type WholeOnly = 'capture';
type Columned = (typeof TEXT_FIELDS)[number] | (typeof NUMBER_FIELDS)[number] | 'viaAllOperations';
/**
 * A field added to the record type and given neither a column nor a place in WholeOnly: `fitsColumns` then takes
 * only records where that field is `never`, and the encoder's call to it fails to compile.
 */
type Unplaced = Exclude<keyof NewMonitoringRecord, Columned | WholeOnly>;

export function encodeMonitoringBatch(
  entries: readonly (readonly [record: NewMonitoringRecord, traceparent: string | undefined])[],
): MonitoringBatch {
  const count = entries.length;
  const strings: string[] = [];
  const indexes = new Map<string, number>();
  const intern = (value: string | undefined) => {
    if (value === undefined) return -1;
    let index = indexes.get(value);
    if (index === undefined) {
      index = strings.push(value) - 1;
      indexes.set(value, index);
    }
    return index;
  };
  const text = new Int32Array(count * TEXT_FIELDS.length);
  const numbers = new Float64Array(count * NUMBER_FIELDS.length);
  const flags = new Int8Array(count).fill(-1);
  const traceparents = new Int32Array(count);
  const whole: MonitoringBatch['whole'] = [];
  for (let position = 0; position < count; position++) {
    const [record, traceparent] = entries[position]!;
    traceparents[position] = intern(traceparent);
    if (!fitsColumns(record)) {
      whole.push([position, record]);
      continue;
    }
    // Field by field in TEXT_FIELDS' and NUMBER_FIELDS' order: a keyed loop over the field names reads each
    // property through V8's generic path and cost as much as the structured clone this replaces.
    let at = position * TEXT_FIELDS.length;
    text[at++] = intern(record.time);
    text[at++] = intern(record.agentGroupId);
    text[at++] = intern(record.agentGroupName);
    text[at++] = intern(record.method);
    text[at++] = intern(record.path);
    text[at++] = intern(record.apiId);
    text[at++] = intern(record.apiName);
    text[at++] = intern(record.operation);
    text[at++] = intern(record.targetUrl);
    text[at++] = intern(record.outcome);
    text[at++] = intern(record.clientIp);
    text[at++] = intern(record.identity);
    text[at++] = intern(record.reason);
    text[at] = intern(record.instance);
    at = position * NUMBER_FIELDS.length;
    numbers[at++] = record.status;
    numbers[at++] = record.durationMs;
    numbers[at++] = record.bytesIn;
    numbers[at] = record.bytesOut;
    if (record.viaAllOperations !== undefined) flags[position] = record.viaAllOperations ? 1 : 0;
  }
  return { count, strings, text, numbers, flags, traceparents, whole };
}

/** Calls `each` with every record of the batch, in the order they were encoded. */
export function forEachMonitoringRecord(
  batch: MonitoringBatch,
  each: (record: NewMonitoringRecord, traceparent: string | undefined) => void,
): void {
  const { strings, text, numbers, flags, traceparents, whole } = batch;
  let nextWhole = 0;
  for (let position = 0; position < batch.count; position++) {
    const traceparentIndex = traceparents[position]!;
    const traceparent = traceparentIndex === -1 ? undefined : strings[traceparentIndex];
    if (nextWhole < whole.length && whole[nextWhole]![0] === position) {
      each(whole[nextWhole++]![1], traceparent);
      continue;
    }
    const record: Record<string, unknown> = {};
    for (let field = 0; field < TEXT_FIELDS.length; field++) {
      const index = text[position * TEXT_FIELDS.length + field]!;
      if (index !== -1) record[TEXT_FIELDS[field]!] = strings[index];
    }
    for (let field = 0; field < NUMBER_FIELDS.length; field++)
      record[NUMBER_FIELDS[field]!] = numbers[position * NUMBER_FIELDS.length + field];
    if (flags[position] !== -1) record.viaAllOperations = flags[position] === 1;
    each(record as unknown as NewMonitoringRecord, traceparent);
  }
}

/**
 * Whether every field has the type the columns hold. Fields outside the record type are not looked for: the
 * compile-time check above places every field the type has, and the store keeps only those.
 */
function fitsColumns(record: NewMonitoringRecord & Record<Unplaced, never>): boolean {
  return (
    record.capture === undefined &&
    typeof record.time === 'string' &&
    typeof record.agentGroupId === 'string' &&
    typeof record.agentGroupName === 'string' &&
    typeof record.method === 'string' &&
    typeof record.path === 'string' &&
    optionalText(record.apiId) &&
    optionalText(record.apiName) &&
    optionalText(record.operation) &&
    optionalText(record.targetUrl) &&
    typeof record.outcome === 'string' &&
    typeof record.clientIp === 'string' &&
    optionalText(record.identity) &&
    optionalText(record.reason) &&
    optionalText(record.instance) &&
    typeof record.status === 'number' &&
    typeof record.durationMs === 'number' &&
    typeof record.bytesIn === 'number' &&
    typeof record.bytesOut === 'number' &&
    (record.viaAllOperations === undefined || typeof record.viaAllOperations === 'boolean')
  );
}

function optionalText(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}
