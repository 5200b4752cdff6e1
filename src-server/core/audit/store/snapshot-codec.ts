import type { AuditAgentGroup, AuditResource } from '../audit-entry.js';
import { crc32, type LogPosition, type SegmentInfo } from '../../storage/index.js';
import { AuditIndex } from './audit-index.js';
import { CaseInsensitiveInterner, KeyedInterner, resourceKey } from './interners.js';
import { PER_ROW_COLUMNS, RowColumns, type PerRowColumn } from './row-columns.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import { GatehouseError } from '../../errors/gatehouse-error.js';

/**
 * Index snapshot file: `[magic 8][format u32][header length u32][header JSON][sections...][crc32 u32]`.
 * The header says which log position the snapshot covers and which segment generations it was taken
 * against; sections are the raw bytes of the typed arrays, in `header.sections` order.
 */
const MAGIC = Buffer.from('GHAUDSNP', 'latin1');
export const SNAPSHOT_FORMAT_VERSION = 1;

interface SnapshotHeader {
  rowCount: number;
  liveCount: number;
  highestAppliedId: number;
  covered: LogPosition;
  segments: { seq: number; generation: number }[];
  actionNames: string[];
  userNames: string[];
  agentGroups: AuditAgentGroup[];
  resources: AuditResource[];
  tombstoneIdCounts: [number, number][];
  sections: { name: string; byteLength: number }[];
}

export class SnapshotError extends GatehouseError {
  override name = 'SnapshotError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_AUDIT_SNAPSHOT_INVALID, message);
  }
}

type TypedArray = Uint8Array | Uint32Array | Float64Array;

/** Copies the index into buffers (the index keeps changing while they are written). Last chunk is the CRC. */
export function encodeSnapshot(index: AuditIndex, segments: readonly SegmentInfo[]): Buffer[] {
  const { columns } = index;
  const sections: [string, TypedArray][] = PER_ROW_COLUMNS.map((name) => [
    name,
    columns[name].subarray(0, columns.count),
  ]);
  sections.push(['resourceStarts', columns.resourceStarts.subarray(0, columns.count + 1)]);
  sections.push(['resourceRefs', columns.resourceRefs.subarray(0, columns.resourceRefCount)]);
  sections.push(['order', index.lists.order.view()]);
  const header: SnapshotHeader = {
    rowCount: columns.count,
    liveCount: index.liveCount,
    // Not `index.nextId`: appends in flight have ids above what the snapshot covers; replay brings them back.
    highestAppliedId: index.highestAppliedId,
    covered: index.covered,
    segments: segments
      .filter((s) => s.seq <= index.covered.segment)
      .map(({ seq, generation }) => ({ seq, generation })),
    actionNames: index.actions.displayNames,
    userNames: index.users.displayNames,
    agentGroups: index.agentGroups.values,
    resources: index.resources.values,
    tombstoneIdCounts: [...index.tombstoneIdCounts.entries()],
    sections: sections.map(([name, array]) => ({ name, byteLength: array.byteLength })),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(MAGIC.length + 8);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(SNAPSHOT_FORMAT_VERSION, MAGIC.length);
  prefix.writeUInt32LE(headerBytes.length, MAGIC.length + 4);
  const chunks = [prefix, headerBytes, ...sections.map(([, array]) => Buffer.copyBytesFrom(array))];
  let checksum = 0;
  for (const chunk of chunks) checksum = crc32(chunk, checksum);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(checksum, 0);
  chunks.push(trailer);
  return chunks;
}

export interface DecodedSnapshot {
  index: AuditIndex;
  /** Segment generations the snapshot was taken against (those up to the covered position). */
  segments: { seq: number; generation: number }[];
}

/** Parses and verifies a snapshot; throws `SnapshotError` saying what is wrong. */
export function decodeSnapshot(bytes: Buffer): DecodedSnapshot {
  const minimum = MAGIC.length + 12;
  if (bytes.length < minimum) throw new SnapshotError('snapshot file is truncated');
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new SnapshotError('not an audit index snapshot');
  const version = bytes.readUInt32LE(MAGIC.length);
  if (version !== SNAPSHOT_FORMAT_VERSION) throw new SnapshotError(`unsupported snapshot format ${version}`);
  const body = bytes.subarray(0, bytes.length - 4);
  if (crc32(body) !== bytes.readUInt32LE(bytes.length - 4))
    throw new SnapshotError('snapshot checksum mismatch');
  const headerLength = bytes.readUInt32LE(MAGIC.length + 4);
  let position = MAGIC.length + 8;
  const header = JSON.parse(bytes.toString('utf8', position, position + headerLength)) as SnapshotHeader;
  position += headerLength;
  const raw = new Map<string, Buffer>();
  for (const { name, byteLength } of header.sections) {
    if (position + byteLength > body.length) throw new SnapshotError(`section ${name} runs past the end`);
    raw.set(name, bytes.subarray(position, position + byteLength));
    position += byteLength;
  }
  return { index: buildIndex(header, raw), segments: header.segments };
}

function buildIndex(header: SnapshotHeader, raw: Map<string, Buffer>): AuditIndex {
  const count = header.rowCount;
  const capacity = count + Math.max(1024, count >> 3);
  const template = new RowColumns(0);
  const perRow = {} as Record<PerRowColumn, TypedArray>;
  for (const name of PER_ROW_COLUMNS) {
    const Type = template[name].constructor as new (length: number) => TypedArray;
    perRow[name] = restore(raw, name, Type, count, capacity);
  }
  const starts = restore(raw, 'resourceStarts', Uint32Array, count + 1, capacity + 1);
  const refCount = starts[count]!;
  const refs = restore(raw, 'resourceRefs', Uint32Array, refCount, Math.max(64, refCount * 2));
  const columns = new RowColumns(0);
  columns.load(count, perRow, starts, refs);
  const index = new AuditIndex(columns);
  index.actions = CaseInsensitiveInterner.from(header.actionNames);
  index.users = CaseInsensitiveInterner.from(header.userNames);
  index.agentGroups = KeyedInterner.from((group) => group.id, header.agentGroups);
  index.resources = KeyedInterner.from(resourceKey, header.resources);
  index.tombstoneIdCounts = new Map(header.tombstoneIdCounts);
  index.highestAppliedId = header.highestAppliedId;
  index.nextId = header.highestAppliedId + 1;
  index.liveCount = header.liveCount;
  index.covered = header.covered;
  const orderBytes = raw.get('order')?.length ?? 0;
  const order = restore(raw, 'order', Uint32Array, orderBytes / 4, capacity);
  index.lists.rebuildFrom(order, orderBytes / 4);
  return index;
}

function restore<T extends TypedArray>(
  raw: Map<string, Buffer>,
  name: string,
  Type: new (length: number) => T,
  length: number,
  capacity: number,
): T {
  const bytes = raw.get(name);
  const target = new Type(capacity);
  const byteLength = length * target.BYTES_PER_ELEMENT;
  if (!bytes || bytes.length !== byteLength) throw new SnapshotError(`section ${name} has the wrong size`);
  new Uint8Array(target.buffer, 0, byteLength).set(bytes);
  return target;
}

/** Why the snapshot cannot be used with the log as it is now, or undefined when it can. */
export function snapshotMismatch(
  snapshot: DecodedSnapshot,
  current: readonly SegmentInfo[],
): string | undefined {
  const { covered } = snapshot.index;
  const now = current.filter((segment) => segment.seq <= covered.segment);
  const then = snapshot.segments;
  if (
    now.length !== then.length ||
    now.some((s, i) => s.seq !== then[i]!.seq || s.generation !== then[i]!.generation)
  ) {
    return 'the log segments changed after the snapshot was taken';
  }
  const coveredSegment = current.find((segment) => segment.seq === covered.segment);
  if (covered.segment > 0 && (!coveredSegment || coveredSegment.size < covered.offset)) {
    return 'the log is shorter than the position the snapshot covers';
  }
  return undefined;
}
