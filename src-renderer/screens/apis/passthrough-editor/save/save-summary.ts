import { ApiProblemError, describeError } from '../../../../api/api-errors.js';
import { ALL_OPERATIONS } from '../draft/editor-draft.js';
import type { SaveErrors } from '../draft/save-errors.js';

const entryLabel = (key: string) => (key === ALL_OPERATIONS ? 'All operations' : key);

/**
 * One line for the save bar on why the last save did not happen, next to the Save button where the user is
 * looking; the details stay in the message above the editor.
 */
export function saveFailureSummary(
  failure: unknown,
  errors: SaveErrors | undefined,
  hasEntry: (key: string) => boolean,
  localProblem: string | undefined,
): string | undefined {
  if (localProblem !== undefined)
    return `Not saved: ${localProblem.charAt(0).toLowerCase()}${localProblem.slice(1)}`;
  if (failure === undefined) return undefined;
  const problem = failure instanceof ApiProblemError ? failure : undefined;
  if (problem?.is('GH_ERR_VALIDATION') && errors) {
    const entries = Object.keys(errors.byEntry).filter(hasEntry).map(entryLabel);
    if (entries.length === 0) return 'Not saved: the configuration has problems, listed above.';
    return `Not saved: correct the marked fields in ${entries.join(', ')}.`;
  }
  if (problem?.is('GH_ERR_LEGACY_AGENT_GROUP', 'GH_ERR_MISSING_VARIABLE_VALUES')) {
    return `Not saved, because it could not be deployed: ${problem.detail ?? problem.title}`;
  }
  if (problem?.is('GH_ERR_REVISION_MISMATCH', 'GH_ERR_PASSTHROUGH_EXISTS')) {
    return 'Not saved: someone else changed this configuration. Reload to see theirs (yours is discarded).';
  }
  const described = describeError(failure);
  return `Not saved: ${described.title}${described.detail ? ` — ${described.detail}` : ''}`;
}
