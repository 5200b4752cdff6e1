import type { MonitoringRecord, NewMonitoringRecord } from '../monitoring-record.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import { GatehouseError } from '../../errors/gatehouse-error.js';

/**
 * One monitoring record inside a block (see `block-codec.ts`):
 *
 *   [status u16][optional-field bits u16][reserved u32]
 *   [id f64][time ms f64][duration ms f64][bytes in f64][bytes out f64]
 *   strings, each [byte length u16][UTF-8]: outcome, agentGroupId, method, path, apiId?, operation?,
 *   agentGroupName, clientIp, apiName?, targetUrl?, identity?, reason?
 *
 * The fields the index needs come first, so replay reads them without decoding the rest.
 */
const HEADER_BYTES = 48;

const HAS_API_ID = 1 << 0;
const HAS_OPERATION = 1 << 1;
const HAS_API_NAME = 1 << 2;
const HAS_TARGET_URL = 1 << 3;
const HAS_IDENTITY = 1 << 4;
const HAS_REASON = 1 << 5;
const ABSENT = -1;

export class RecordCodecError extends GatehouseError {
  override name = 'RecordCodecError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_MONITORING_RECORD_INVALID, message);
  }
}

/** Bytes `encodeRecord` may need at most for this record. */
export function worstCaseRecordBytes(record: NewMonitoringRecord): number {
  let characters =
    record.outcome.length +
    record.agentGroupId.length +
    record.method.length +
    record.path.length +
    record.agentGroupName.length +
    record.clientIp.length;
  characters += (record.apiId?.length ?? 0) + (record.operation?.length ?? 0) + (record.apiName?.length ?? 0);
  characters +=
    (record.targetUrl?.length ?? 0) + (record.identity?.length ?? 0) + (record.reason?.length ?? 0);
  return HEADER_BYTES + 2 * STRING_FIELDS + characters * 3;
}

const STRING_FIELDS = 12;

/** Writes the record at `offset` of `target` (room for `worstCaseRecordBytes`); returns the bytes written. */
export function encodeRecord(
  target: Buffer,
  offset: number,
  id: number,
  timeMs: number,
  record: NewMonitoringRecord,
): number {
  target.writeUInt16LE(record.status, offset);
  target.writeUInt16LE(optionalBits(record), offset + 2);
  target.writeUInt32LE(0, offset + 4);
  target.writeDoubleLE(id, offset + 8);
  target.writeDoubleLE(timeMs, offset + 16);
  target.writeDoubleLE(record.durationMs, offset + 24);
  target.writeDoubleLE(record.bytesIn, offset + 32);
  target.writeDoubleLE(record.bytesOut, offset + 40);
  let position = offset + HEADER_BYTES;
  position = writeText(target, position, record.outcome);
  position = writeText(target, position, record.agentGroupId);
  position = writeText(target, position, record.method);
  position = writeText(target, position, record.path);
  position = writeText(target, position, record.apiId);
  position = writeText(target, position, record.operation);
  position = writeText(target, position, record.agentGroupName);
  position = writeText(target, position, record.clientIp);
  position = writeText(target, position, record.apiName);
  position = writeText(target, position, record.targetUrl);
  position = writeText(target, position, record.identity);
  position = writeText(target, position, record.reason);
  return position - offset;
}

const SHORT_TEXT = 64;

/**
 * Writes `[byte length u16][UTF-8]` at `position` (nothing for an absent field); returns the position after it.
 * Short ASCII text, which is nearly every field, is copied here: a native write costs more than the copy.
 */
function writeText(target: Buffer, position: number, value: string | undefined): number {
  if (value === undefined) return position;
  const start = position + 2;
  let length = -1;
  if (value.length <= SHORT_TEXT) {
    let index = 0;
    while (index < value.length) {
      const code = value.charCodeAt(index);
      if (code >= 0x80) break;
      target[start + index] = code;
      index++;
    }
    if (index === value.length) length = index;
  }
  if (length === -1) length = target.write(value, start, 'utf8');
  if (length > 0xffff) throw new RecordCodecError('A monitoring record field is too long to encode');
  target.writeUInt16LE(length, position);
  return start + length;
}

function optionalBits(record: NewMonitoringRecord): number {
  return (
    (record.apiId !== undefined ? HAS_API_ID : 0) |
    (record.operation !== undefined ? HAS_OPERATION : 0) |
    (record.apiName !== undefined ? HAS_API_NAME : 0) |
    (record.targetUrl !== undefined ? HAS_TARGET_URL : 0) |
    (record.identity !== undefined ? HAS_IDENTITY : 0) |
    (record.reason !== undefined ? HAS_REASON : 0)
  );
}

/**
 * Reads the index fields of one record into itself (one reader is reused for a whole replay: no object per
 * record). String fields are byte ranges of the block: `*Start` and `*Length`, the length -1 when absent.
 */
export class IndexFieldReader {
  id = 0;
  timeMs = 0;
  durationMs = 0;
  status = 0;
  outcomeStart = 0;
  outcomeLength = 0;
  agentGroupStart = 0;
  agentGroupLength = 0;
  methodStart = 0;
  methodLength = 0;
  pathStart = 0;
  pathLength = 0;
  apiStart = 0;
  apiLength = ABSENT;
  operationStart = 0;
  operationLength = ABSENT;
  private position = 0;
  private end = 0;

  read(block: Buffer, offset: number, length: number): void {
    if (length < HEADER_BYTES) throw new RecordCodecError('Monitoring record is truncated');
    this.end = offset + length;
    this.status = block.readUInt16LE(offset);
    const bits = block.readUInt16LE(offset + 2);
    this.id = block.readDoubleLE(offset + 8);
    this.timeMs = block.readDoubleLE(offset + 16);
    this.durationMs = block.readDoubleLE(offset + 24);
    this.position = offset + HEADER_BYTES;
    this.outcomeLength = this.next(block);
    this.outcomeStart = this.position - this.outcomeLength;
    this.agentGroupLength = this.next(block);
    this.agentGroupStart = this.position - this.agentGroupLength;
    this.methodLength = this.next(block);
    this.methodStart = this.position - this.methodLength;
    this.pathLength = this.next(block);
    this.pathStart = this.position - this.pathLength;
    this.apiLength = bits & HAS_API_ID ? this.next(block) : ABSENT;
    this.apiStart = this.position - Math.max(0, this.apiLength);
    this.operationLength = bits & HAS_OPERATION ? this.next(block) : ABSENT;
    this.operationStart = this.position - Math.max(0, this.operationLength);
  }

  /** Skips one string; returns its length (`position` then points past it). */
  private next(block: Buffer): number {
    if (this.position + 2 > this.end) throw new RecordCodecError('Monitoring record is truncated');
    const length = block.readUInt16LE(this.position);
    this.position += 2 + length;
    if (this.position > this.end) throw new RecordCodecError('Monitoring record is truncated');
    return length;
  }
}

export function decodeRecord(block: Buffer, offset: number, length: number): MonitoringRecord {
  if (length < HEADER_BYTES) throw new RecordCodecError('Monitoring record is truncated');
  const end = offset + length;
  const bits = block.readUInt16LE(offset + 2);
  let position = offset + HEADER_BYTES;
  const text = (bit = 0): string | undefined => {
    if (bit !== 0 && (bits & bit) === 0) return undefined;
    if (position + 2 > end) throw new RecordCodecError('Monitoring record is truncated');
    const size = block.readUInt16LE(position);
    const start = position + 2;
    position = start + size;
    if (position > end) throw new RecordCodecError('Monitoring record is truncated');
    return block.toString('utf8', start, position);
  };
  const outcome = text() as MonitoringRecord['outcome'];
  const agentGroupId = text()!;
  const method = text()!;
  const path = text()!;
  const apiId = text(HAS_API_ID);
  const operation = text(HAS_OPERATION);
  const agentGroupName = text()!;
  const clientIp = text()!;
  const apiName = text(HAS_API_NAME);
  const targetUrl = text(HAS_TARGET_URL);
  const identity = text(HAS_IDENTITY);
  const reason = text(HAS_REASON);
  // Keys in the order of the interface: the JSON reads like the documentation.
  return {
    id: block.readDoubleLE(offset + 8),
    time: new Date(block.readDoubleLE(offset + 16)).toISOString(),
    agentGroupId,
    agentGroupName,
    method,
    path,
    ...(apiId !== undefined ? { apiId } : {}),
    ...(apiName !== undefined ? { apiName } : {}),
    ...(operation !== undefined ? { operation } : {}),
    status: block.readUInt16LE(offset),
    durationMs: block.readDoubleLE(offset + 24),
    bytesIn: block.readDoubleLE(offset + 32),
    bytesOut: block.readDoubleLE(offset + 40),
    ...(targetUrl !== undefined ? { targetUrl } : {}),
    outcome,
    clientIp,
    ...(identity !== undefined ? { identity } : {}),
    ...(reason !== undefined ? { reason } : {}),
  };
}
