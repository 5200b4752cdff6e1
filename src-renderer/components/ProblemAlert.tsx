import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { describeError } from '../api/api-errors.js';

export interface ProblemAlertProps {
  error: unknown;
  /** What failed, e.g. "Loading the settings". */
  context?: string;
  onRetry?: () => void;
}

/** Inline display of a failure: the problem's title, detail and validation errors. */
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
      {described.fieldMessages.length > 0 ? (
        <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {described.fieldMessages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
