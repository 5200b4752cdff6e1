import { useEffect, useRef, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { takeHeadingFocusRequest } from '../router/history.js';

export interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}

/** The screen's h1 (focused after in-app navigation, so screen readers announce the new screen). */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(title);
  useEffect(() => {
    if (takeHeadingFocusRequest()) headingRef.current?.focus();
  }, []);
  return (
    <Box
      component="header"
      sx={{ display: 'flex', alignItems: 'flex-start', gap: 2, mb: 3, flexWrap: 'wrap' }}
    >
      <Box sx={{ flex: '1 1 420px', minWidth: 0 }}>
        <Typography variant="h1" ref={headingRef} tabIndex={-1} sx={{ outline: 'none' }}>
          {title}
        </Typography>
        {description ? (
          <Typography component="div" sx={{ color: 'text.secondary', mt: 0.5, maxWidth: 900 }}>
            {description}
          </Typography>
        ) : null}
      </Box>
      {actions ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>{actions}</Box>
      ) : null}
    </Box>
  );
}
