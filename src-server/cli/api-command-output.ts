import type { ChangeSummary } from '../control/apis/change-summary.js';
import type { ImportOutcome, ReimportOutcome } from '../control/apis/api-import-service.js';
import type { HttpProblem } from '../core/http/problem.js';
import { ErrorCode } from '../core/contracts/error-codes.js';

/** What `gatehouse api import` prints: the outcome, every warning (grouped by JSON pointer) and every skipped operation. */
export function printImportReport(out: NodeJS.WritableStream, outcome: ImportOutcome): void {
  const { warnings, skipped } = outcome;
  if (skipped.length > 0) {
    out.write(`${skipped.length} operation(s) not exposed:\n`);
    for (const operation of skipped)
      out.write(`  skipped ${operation.method} ${operation.path}: ${operation.reason}\n`);
  }
  if (warnings.length > 0) {
    out.write(`${warnings.length} warning(s) about the document:\n`);
    for (const warning of warnings)
      out.write(`  warning ${warning.pointer || '(document)'}: ${warning.message}\n`);
  }
}

export function printChanges(out: NodeJS.WritableStream, changes: ChangeSummary | ReimportOutcome): void {
  const lines: string[] = [];
  const list = (label: string, keys: readonly string[]) => {
    if (keys.length === 0) return;
    lines.push(`${label} (${keys.length}):`, ...keys.map((key) => `  ${key}`));
  };
  list('Operations added', changes.added);
  list('Operations removed', changes.removed);
  if ('changed' in changes) {
    list(
      'Operations changed',
      changes.changed.map((change) => `${change.after}: ${change.changes.join('; ')}`),
    );
  }
  list(
    'Passthrough entries dropped',
    changes.droppedPassthroughEntries.map((entry) => `${entry.operation}: ${entry.reason}`),
  );
  if (lines.length > 0) out.write(`${lines.join('\n')}\n`);
}

/** An HttpProblem of the import service as a message for the terminal. */
export function describeProblem(problem: HttpProblem): string {
  const lines = [problem.detail ?? problem.title];
  for (const [field, messages] of Object.entries(problem.errors ?? {})) {
    for (const message of messages) lines.push(`  ${field === '' ? '(document)' : field}: ${message}`);
  }
  if (problem.code === ErrorCode.GH_ERR_PRIVATE_ADDRESS) {
    lines.push('  Run again with --allow-private-address to confirm.');
  }
  return lines.join('\n');
}
