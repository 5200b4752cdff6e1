import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { memo, type ReactNode } from 'react';
import type { AuditEntry } from '../../api/types.js';
import { CopyButton } from '../../components/CopyButton.js';
import { formatLocal, formatUtc } from '../../format/date-time.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';
import { CATEGORY_LABEL, statusColor } from './audit-columns.js';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h3" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Box>
  );
}

export interface AuditEntryDrawerProps {
  entry: AuditEntry | undefined;
  onClose(): void;
}

/** One entry in full: who, when, status, affected resources, agent group and the request parameters. */
export const AuditEntryDrawer = memo(function AuditEntryDrawer({ entry, onClose }: AuditEntryDrawerProps) {
  const parametersJson = entry ? JSON.stringify(entry.parameters, null, 2) : '';
  return (
    <Drawer
      anchor="right"
      open={entry !== undefined}
      onClose={onClose}
      // Above the top bar, which sits over the permanent navigation drawer.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': 'audit-entry-title',
          sx: { width: 560, maxWidth: '100vw', p: 3 },
        },
      }}
    >
      {entry ? (
        <>
          <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Typography variant="overline" component="p" sx={{ color: 'text.secondary' }}>
                Audit entry {entry.id}
              </Typography>
              <Typography variant="h2" id="audit-entry-title" sx={{ wordBreak: 'break-word' }}>
                {entry.actionName}
              </Typography>
            </Box>
            <IconButton aria-label="Close the details" onClick={onClose}>
              <CloseIcon />
            </IconButton>
          </Stack>
          {entry.description ? <Typography sx={{ mt: 1 }}>{entry.description}</Typography> : null}
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              columnGap: 2,
              rowGap: 1,
              mt: 2,
              mb: 0,
            }}
          >
            <Field label="Time (UTC)">{formatUtc(entry.timestamp, true)}</Field>
            <Field label="Local time">{formatLocal(entry.timestamp)}</Field>
            <Field label="User">{entry.userName}</Field>
            <Field label="Category">{CATEGORY_LABEL[entry.category]}</Field>
            <Field label="Status">
              {entry.statusCode === undefined ? (
                '—'
              ) : (
                <Chip size="small" color={statusColor(entry.statusCode)} label={entry.statusCode} />
              )}
            </Field>
            <Field label="Agent group">
              {entry.agentGroup ? `${entry.agentGroup.name} (${entry.agentGroup.id})` : 'None recorded'}
            </Field>
          </Box>
          <Divider sx={{ mt: 3 }} />
          <Section title="Affected resources">
            {entry.resources.length === 0 ? (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                None recorded.
              </Typography>
            ) : (
              <List dense disablePadding>
                {entry.resources.map((resource) => (
                  <ListItem key={`${resource.type}:${resource.id}`} disableGutters>
                    <ListItemText
                      primary={resource.name ?? resource.id}
                      secondary={`${resource.type} · ${resource.id}`}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Section>
          <Section title="Parameters" action={<CopyButton text={parametersJson} label="Copy parameters" />}>
            <Box
              component="pre"
              data-testid="audit-entry-parameters"
              tabIndex={0}
              aria-label="Parameters as JSON"
              sx={{
                fontFamily: MONOSPACE_FONT,
                fontSize: '0.8125rem',
                bgcolor: 'action.hover',
                p: 2,
                m: 0,
                borderRadius: 1,
                overflow: 'auto',
                maxHeight: 420,
              }}
            >
              {parametersJson}
            </Box>
          </Section>
        </>
      ) : null}
    </Drawer>
  );
});
