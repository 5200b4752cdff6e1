import type { DefinitionIssue, SkippedOperation } from './types.js';

export const DEFAULT_MAX_WARNINGS = 1_000;

/**
 * Collects what the import reports: refusals (nothing usable can be taken from the document), warnings (it
 * imports, but something is off) and skipped operations (listed in the document, not exposed). Exact
 * duplicates are dropped (a shared `$ref` target is checked once per use); at most `maxWarnings` warnings
 * are kept and `finish()` appends one entry counting the rest.
 */
export class IssueCollector {
  private readonly refusals: DefinitionIssue[] = [];
  private readonly warnings: DefinitionIssue[] = [];
  private readonly skipped: SkippedOperation[] = [];
  private readonly seen = new Set<string>();
  private omittedWarnings = 0;
  private readonly maxWarnings: number;

  constructor(maxWarnings = DEFAULT_MAX_WARNINGS) {
    this.maxWarnings = Math.max(0, maxWarnings);
  }

  /** Nothing usable can be taken from the document. */
  refuse(pointer: string, message: string, position?: { line: number; column: number }): void {
    if (!this.isNew('R', pointer, message)) return;
    this.refusals.push(position ? { pointer, message, ...position } : { pointer, message });
  }

  warning(pointer: string, message: string): void {
    if (!this.isNew('W', pointer, message)) return;
    if (this.warnings.length >= this.maxWarnings) {
      this.omittedWarnings += 1;
      return;
    }
    this.warnings.push({ pointer, message });
  }

  /** An operation of the document that is not exposed, with the reason in plain words. */
  skip(operation: SkippedOperation): void {
    if (!this.isNew('S', operation.pointer, `${operation.method} ${operation.path}`)) return;
    this.skipped.push(operation);
  }

  get refused(): boolean {
    return this.refusals.length > 0;
  }

  get warningCount(): number {
    return this.warnings.length + this.omittedWarnings;
  }

  finish(): { refusals: DefinitionIssue[]; warnings: DefinitionIssue[]; skipped: SkippedOperation[] } {
    const warnings = [...this.warnings];
    if (this.omittedWarnings > 0) {
      warnings.push({ pointer: '', message: `${this.omittedWarnings} more warning(s) not listed` });
    }
    return { refusals: [...this.refusals], warnings, skipped: [...this.skipped] };
  }

  private isNew(kind: 'R' | 'W' | 'S', pointer: string, message: string): boolean {
    const key = `${kind}\u0000${pointer}\u0000${message}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}
