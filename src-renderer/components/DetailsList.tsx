import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** Labelled values in two columns (a `dl`): labels on the left, values on the right. */
export function DetailsList({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box
      component="dl"
      data-testid={testId}
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content 1fr',
        columnGap: 2,
        rowGap: 1,
        mt: 2,
        mb: 0,
      }}
    >
      {children}
    </Box>
  );
}

/** One label and its value in a `DetailsList`. */
export function DetailsField({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }} data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}
