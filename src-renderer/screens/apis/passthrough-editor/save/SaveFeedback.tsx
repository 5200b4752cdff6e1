import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { ApiProblemError, describeError } from '../../../../api/api-errors.js';
import { ProblemAlert } from '../../../../components/ProblemAlert.js';
import { ProblemMessages } from '../../../../components/ProblemMessages.js';
import { ALL_OPERATIONS } from '../draft/editor-draft.js';
import type { SaveErrors } from '../draft/save-errors.js';

export interface SaveFeedbackProps {
  failure: unknown;
  errors: SaveErrors | undefined;
  /** Entries of the draft (others named by the errors may have been removed since). */
  hasEntry: (key: string) => boolean;
  onShowEntry: (key: string) => void;
  onReload: () => void;
  onDismiss: () => void;
}

const entryLabel = (key: string) => (key === ALL_OPERATIONS ? 'All operations' : key);

/**
 * Why a save was refused: field errors (the entries to look at), a deployment refused by the agent groups (a
 * legacy group, missing variable values), a concurrent change, or anything else.
 */
export function SaveFeedback({
  failure,
  errors,
  hasEntry,
  onShowEntry,
  onReload,
  onDismiss,
}: SaveFeedbackProps) {
  if (failure === undefined) return null;
  const problem = failure instanceof ApiProblemError ? failure : undefined;

  if (problem?.is('GH_ERR_VALIDATION') && errors) {
    const entries = Object.keys(errors.byEntry).filter(hasEntry);
    return (
      <Alert severity="error" onClose={onDismiss} data-testid="save-errors">
        <AlertTitle>The configuration was not saved: correct the marked fields</AlertTitle>
        {entries.length > 0 ? (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            Problems in:
            {entries.map((key) => (
              <Button
                key={key}
                size="small"
                variant="outlined"
                // The alert's own text colour: error red on the alert's red tint falls below 4.5:1.
                color="inherit"
                onClick={() => onShowEntry(key)}
              >
                {entryLabel(key)}
              </Button>
            ))}
          </Box>
        ) : null}
        {errors.general.length > 0 ? (
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {errors.general.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </Alert>
    );
  }

  if (problem?.is('GH_ERR_LEGACY_AGENT_GROUP', 'GH_ERR_MISSING_VARIABLE_VALUES')) {
    const legacy = problem.is('GH_ERR_LEGACY_AGENT_GROUP');
    return (
      <Alert severity="error" onClose={onDismiss} data-testid="deploy-error">
        <AlertTitle>Not deployed, so nothing was saved</AlertTitle>
        {problem.detail}
        <ProblemMessages messages={describeError(problem).extensionMessages} />
        <Box sx={{ mt: 1 }}>
          {legacy ? (
            'Passthrough runs on cross-platform agents only: assign the API to a cross-platform agent group on the APIs screen.'
          ) : (
            <>
              Give each referenced variable a value in the environment of the API&apos;s agent groups under{' '}
              <Link href="/environment-variables">Environment variables</Link>, or change the reference.
            </>
          )}
        </Box>
      </Alert>
    );
  }

  if (problem?.is('GH_ERR_REVISION_MISMATCH', 'GH_ERR_PASSTHROUGH_EXISTS')) {
    return (
      <Alert
        severity="warning"
        data-testid="conflict-error"
        action={
          <Button color="inherit" size="small" onClick={onReload}>
            Reload
          </Button>
        }
      >
        <AlertTitle>Changed by someone else</AlertTitle>
        {problem.detail} Reloading discards your changes here.
      </Alert>
    );
  }

  return <ProblemAlert error={failure} context="Saving the configuration failed" />;
}
