/** Receives the storage layer's reports of recovered damage; it never throws for these. */
export type WarningReporter = (message: string, details: Record<string, unknown>) => void;

/** Where one record lives: its segment, the offset of its frame, and the size of its payload. */
export interface RecordLocation {
  segment: number;
  offset: number;
  size: number;
}

/** A point in the log: every record before it (in segment order, then offset) is covered. */
export interface LogPosition {
  segment: number;
  offset: number;
}

export interface SegmentInfo {
  seq: number;
  generation: number;
  /** Committed bytes. */
  size: number;
  /** False for the one segment appends go to. */
  sealed: boolean;
}

export interface ScannedRecord {
  location: RecordLocation;
  payload: Buffer;
}

export function comparePositions(a: LogPosition, b: LogPosition): number {
  return a.segment - b.segment || a.offset - b.offset;
}
