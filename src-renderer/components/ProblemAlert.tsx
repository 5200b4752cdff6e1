import Box from '@mui/material/Box';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { describeError } from '../api/api-errors.js';
import { ProblemMessages } from './ProblemMessages.js';

export interface ProblemAlertProps {
  error: unknown;
  /** What failed, e.g. "Loading the settings". */
  context?: string;
  onRetry?: () => void;
}

/** Inline display of a failure: the problem's title, detail, validation errors and extension lines. */
export function ProblemAlert({ error, context, onRetry }: ProblemAlertProps) {
  const described = describeError(error);
  return (
    <Alert
      severity="error"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{context ? `${context}: ${described.title}` : described.title}</AlertTitle>
      {described.detail}
      <ProblemMessages messages={[...described.fieldMessages, ...described.extensionMessages]} />
    </Alert>
  );
}

export interface LoadFailure {
  /** A load (`useApiQuery`): shown when it has an error, with Retry reloading it. */
  query: { error: unknown; reload: () => void };
  /** What was loading, e.g. "Loading the APIs"; also the key, so it must be unique in the list. */
  context: string;
}

/** One `ProblemAlert` for each load that failed, with room below each. */
export function LoadFailureAlerts({ loads }: { loads: readonly LoadFailure[] }) {
  return (
    <>
      {loads
        .filter(({ query }) => query.error)
        .map(({ query, context }) => (
          <Box key={context} sx={{ mb: 2 }}>
            <ProblemAlert error={query.error} context={context} onRetry={query.reload} />
          </Box>
        ))}
    </>
  );
}
