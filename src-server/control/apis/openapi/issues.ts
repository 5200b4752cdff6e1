import type { DefinitionIssue } from './types.js';

export const DEFAULT_MAX_ERRORS = 100;
export const DEFAULT_MAX_WARNINGS = 100;

/**
 * Collects errors and warnings, dropping exact duplicates (a shared `$ref` target is validated once
 * per use) and keeping at most `maxErrors` / `maxWarnings` of each; `finish()` appends one summary
 * entry for what was left out.
 */
export class IssueCollector {
  private readonly errors: DefinitionIssue[] = [];
  private readonly warnings: DefinitionIssue[] = [];
  private readonly seen = new Set<string>();
  private readonly pointersWithErrors = new Set<string>();
  private omittedErrors = 0;
  private omittedWarnings = 0;
  private stoppedEarly = false;

  private readonly maxErrors: number;
  private readonly maxWarnings: number;

  constructor(maxErrors = DEFAULT_MAX_ERRORS, maxWarnings = DEFAULT_MAX_WARNINGS) {
    this.maxErrors = Math.max(1, maxErrors);
    this.maxWarnings = Math.max(0, maxWarnings);
  }

  error(pointer: string, message: string, position?: { line: number; column: number }): void {
    if (!this.isNew('E', pointer, message)) return;
    this.pointersWithErrors.add(pointer);
    if (this.errors.length >= this.maxErrors) {
      this.omittedErrors += 1;
      return;
    }
    this.errors.push(position ? { pointer, message, ...position } : { pointer, message });
  }

  warning(pointer: string, message: string): void {
    if (!this.isNew('W', pointer, message)) return;
    if (this.warnings.length >= this.maxWarnings) {
      this.omittedWarnings += 1;
      return;
    }
    this.warnings.push({ pointer, message });
  }

  get hasErrors(): boolean {
    return this.errors.length > 0 || this.omittedErrors > 0;
  }

  /** True once more errors would only be counted: validators use it to stop early on huge bad documents. */
  get errorLimitReached(): boolean {
    return this.errors.length >= this.maxErrors;
  }

  /** Called by a validator that skips the rest of its work because `errorLimitReached`. */
  markStoppedEarly(): void {
    this.stoppedEarly = true;
  }

  hasErrorAt(pointer: string): boolean {
    return this.pointersWithErrors.has(pointer);
  }

  finish(): { errors: DefinitionIssue[]; warnings: DefinitionIssue[] } {
    const errors = [...this.errors];
    const warnings = [...this.warnings];
    if (this.stoppedEarly) {
      errors.push({
        pointer: '',
        message: `validation stopped after ${this.maxErrors} errors; there may be more`,
      });
    } else if (this.omittedErrors > 0) {
      errors.push({ pointer: '', message: `${this.omittedErrors} more error(s) not shown` });
    }
    if (this.omittedWarnings > 0) {
      warnings.push({ pointer: '', message: `${this.omittedWarnings} more warning(s) not shown` });
    }
    return { errors, warnings };
  }

  private isNew(kind: 'E' | 'W', pointer: string, message: string): boolean {
    const key = `${kind}\u0000${pointer}\u0000${message}`;
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }
}
