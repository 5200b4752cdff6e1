import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PageHeader } from './PageHeader.js';

export interface ComingSoonProps {
  title: string;
  description: ReactNode;
  /** What the screen will let the user do, one line each. */
  planned: string[];
}

/** A screen whose management endpoints are not available yet. */
export function ComingSoon({ title, description, planned }: ComingSoonProps) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Alert severity="info" sx={{ mb: 3 }}>
        <AlertTitle>Coming soon</AlertTitle>
        This screen is being built. Its management API is not available in this version of Gatehouse yet.
      </Alert>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography variant="h2" gutterBottom>
          What you will be able to do here
        </Typography>
        <ul style={{ margin: 0, paddingLeft: 20 }}>
          {planned.map((line) => (
            <li key={line}>
              <Typography>{line}</Typography>
            </li>
          ))}
        </ul>
      </Paper>
    </>
  );
}
