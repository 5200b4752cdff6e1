import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import type { MonitoringRecord } from '../../api/types.js';
import { CopyButton } from '../../components/CopyButton.js';
import { formatLocal, formatUtc } from '../../format/date-time.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';
import { OUTCOME, formatBytes, formatDuration, statusColor } from './outcome-labels.js';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
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

function Missing({ children }: { children: ReactNode }) {
  return (
    <Box component="span" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
      {children}
    </Box>
  );
}

const mono = { fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem' } as const;

export interface MonitoringRecordDrawerProps {
  record: MonitoringRecord | undefined;
  onClose(): void;
}

/** One monitored request in full; the target URL arrives with its secrets already masked. */
export function MonitoringRecordDrawer({ record, onClose }: MonitoringRecordDrawerProps) {
  return (
    <Drawer
      anchor="right"
      open={record !== undefined}
      onClose={onClose}
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': 'monitoring-record-title',
          sx: { width: 560, maxWidth: '100vw', p: 3 },
        },
      }}
    >
      {record ? (
        <>
          <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 1 }}>
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Typography variant="overline" component="p" sx={{ color: 'text.secondary' }}>
                Request {record.id}
              </Typography>
              <Typography variant="h2" id="monitoring-record-title" sx={{ wordBreak: 'break-all' }}>
                {record.method} {record.path}
              </Typography>
            </Box>
            <IconButton aria-label="Close the details" onClick={onClose}>
              <CloseIcon />
            </IconButton>
          </Stack>
          <Stack direction="row" sx={{ gap: 1, mt: 1.5, flexWrap: 'wrap' }}>
            <Chip
              size="small"
              color={statusColor(record.status)}
              label={`Status ${record.status || 'none sent'}`}
            />
            <Chip size="small" variant="outlined" label={OUTCOME[record.outcome]?.label ?? record.outcome} />
          </Stack>
          <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
            {OUTCOME[record.outcome]?.description}
          </Typography>
          <Box
            component="dl"
            data-testid="monitoring-record-fields"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              columnGap: 2,
              rowGap: 1,
              mt: 2,
              mb: 0,
            }}
          >
            <Field label="Time (UTC)">{formatUtc(record.time, true)}</Field>
            <Field label="Local time">{formatLocal(record.time)}</Field>
            <Field label="Outcome" testId="record-outcome">
              {record.outcome}
            </Field>
            <Field label="Reason">{record.reason ?? <Missing>None recorded</Missing>}</Field>
            <Field label="Status">{record.status === 0 ? '0 (no response sent)' : record.status}</Field>
            <Field label="Method">{record.method}</Field>
            <Field label="Path">
              <span style={mono}>{record.path}</span>
            </Field>
            <Field label="API">
              {record.apiId ? (
                <>
                  {record.apiName ?? record.apiId} <span style={mono}>({record.apiId})</span>
                </>
              ) : (
                <Missing>No API matched</Missing>
              )}
            </Field>
            <Field label="Operation">
              {record.operation ? (
                <span style={mono}>{record.operation === '*' ? '* (All operations)' : record.operation}</span>
              ) : (
                <Missing>None</Missing>
              )}
            </Field>
            <Field label="Target URL" testId="record-target-url">
              {record.targetUrl ? (
                <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                  <span style={{ ...mono, wordBreak: 'break-all' }}>{record.targetUrl}</span>
                  <CopyButton text={record.targetUrl} label="Copy the target URL" />
                </Box>
              ) : (
                <Missing>Not forwarded</Missing>
              )}
            </Field>
            <Field label="Identity">{record.identity ?? <Missing>None</Missing>}</Field>
            <Field label="Agent group">
              {record.agentGroupName} <span style={mono}>({record.agentGroupId})</span>
            </Field>
            <Field label="Client IP">
              <span style={mono}>{record.clientIp}</span>
            </Field>
            <Field label="Duration">{formatDuration(record.durationMs)}</Field>
            <Field label="Bytes in">
              {formatBytes(record.bytesIn)} ({record.bytesIn.toLocaleString('en')} bytes)
            </Field>
            <Field label="Bytes out">
              {formatBytes(record.bytesOut)} ({record.bytesOut.toLocaleString('en')} bytes)
            </Field>
          </Box>
        </>
      ) : null}
    </Drawer>
  );
}
