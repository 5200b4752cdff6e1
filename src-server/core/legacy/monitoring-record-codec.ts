import type { MonitoringRecord } from '../monitoring/monitoring-record.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/**
 * One monitoring record inside a block (see `block-codec.ts`):
 *
 *   [status u16][optional-field bits u16][reserved u32]
 *   [id f64][time ms f64][duration ms f64][bytes in f64][bytes out f64]
 *   strings, each [byte length u16][UTF-8]: outcome, agentGroupId, method, path, apiId?, operation?,
 *   agentGroupName, clientIp, apiName?, targetUrl?, identity?, reason?
 *
 * Read-only now, for the conversion of data dirs written before the SQL storage.
 */
const HEADER_BYTES = 48;

const HAS_API_ID = 1 << 0;
const HAS_OPERATION = 1 << 1;
const HAS_API_NAME = 1 << 2;
const HAS_TARGET_URL = 1 << 3;
const HAS_IDENTITY = 1 << 4;
const HAS_REASON = 1 << 5;

export class RecordCodecError extends GatehouseError {
  override name = 'RecordCodecError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_MONITORING_RECORD_INVALID, message);
  }
}

export function decodeMonitoringRecord(block: Buffer, offset: number, length: number): MonitoringRecord {
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
