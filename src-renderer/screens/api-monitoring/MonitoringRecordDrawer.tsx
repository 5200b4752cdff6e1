import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import { monitoringApi } from '../../api/endpoints.js';
import type { MonitoringRecord } from '../../api/types.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { CapturedExchangeView } from './CapturedExchangeView.js';
import { CopyButton } from '../../components/CopyButton.js';
import { DetailsDrawer, DetailsDrawerHeader } from '../../components/DetailsDrawer.js';
import { DetailsField, DetailsList } from '../../components/DetailsList.js';
import { formatLocal, formatUtc } from '../../format/date-time.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';
import { OUTCOME, formatBytes, formatDuration, statusColor } from './outcome-labels.js';

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
  onClose: () => void;
}

/** One monitored request in full; the target URL arrives with its secrets already masked. */
export function MonitoringRecordDrawer({ record, onClose }: MonitoringRecordDrawerProps) {
  // The list leaves captured exchanges out (they can be large): the drawer reads the one record in full.
  const full = useApiQuery(record ? `monitoring-record-${record.id}` : null, (client, signal) =>
    monitoringApi.get(client, record!.id, { signal }),
  );
  const capture = full.data?.id === record?.id ? full.data?.capture : undefined;
  return (
    <DetailsDrawer open={record !== undefined} titleId="monitoring-record-title" onClose={onClose}>
      {record ? (
        <>
          <DetailsDrawerHeader
            titleId="monitoring-record-title"
            overline={`Request ${record.id}`}
            title={
              <span style={{ wordBreak: 'break-all' }}>
                {record.method} {record.path}
              </span>
            }
            onClose={onClose}
          />
          <Stack direction="row" sx={{ gap: 1, mt: 1.5, flexWrap: 'wrap' }}>
            <Chip
              size="small"
              color={statusColor(record.status)}
              label={`Status ${record.status || 'none sent'}`}
            />
            <Chip size="small" variant="outlined" label={OUTCOME[record.outcome].label} />
          </Stack>
          <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
            {OUTCOME[record.outcome].description}
          </Typography>
          <DetailsList testId="monitoring-record-fields">
            <DetailsField label="Time (UTC)">{formatUtc(record.time, true)}</DetailsField>
            <DetailsField label="Local time">{formatLocal(record.time)}</DetailsField>
            <DetailsField label="Outcome" testId="record-outcome">
              {record.outcome}
            </DetailsField>
            <DetailsField label="Reason">{record.reason ?? <Missing>None recorded</Missing>}</DetailsField>
            <DetailsField label="Status">
              {record.status === 0 ? '0 (no response sent)' : record.status}
            </DetailsField>
            <DetailsField label="Method">{record.method}</DetailsField>
            <DetailsField label="Path">
              <span style={mono}>{record.path}</span>
            </DetailsField>
            <DetailsField label="API">
              {record.apiId ? (
                <>
                  {record.apiName ?? record.apiId} <span style={mono}>({record.apiId})</span>
                </>
              ) : (
                <Missing>No API matched</Missing>
              )}
            </DetailsField>
            <DetailsField label="Operation" testId="record-operation">
              {record.operation ? (
                <>
                  <span style={mono}>
                    {record.operation === '*' ? '* (no operation matched)' : record.operation}
                  </span>
                  {record.viaAllOperations ? ' — served by All operations' : null}
                </>
              ) : (
                <Missing>None</Missing>
              )}
            </DetailsField>
            <DetailsField label="Target URL" testId="record-target-url">
              {record.targetUrl ? (
                <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                  <span style={{ ...mono, wordBreak: 'break-all' }}>{record.targetUrl}</span>
                  <CopyButton text={record.targetUrl} label="Copy the target URL" />
                </Box>
              ) : (
                <Missing>Not forwarded</Missing>
              )}
            </DetailsField>
            <DetailsField label="Identity">{record.identity ?? <Missing>None</Missing>}</DetailsField>
            <DetailsField label="Agent group">
              {record.agentGroupName} <span style={mono}>({record.agentGroupId})</span>
            </DetailsField>
            <DetailsField label="Instance">
              {record.instance ?? <Missing>None recorded</Missing>}
            </DetailsField>
            <DetailsField label="Client IP">
              <span style={mono}>{record.clientIp}</span>
            </DetailsField>
            <DetailsField label="Duration">{formatDuration(record.durationMs)}</DetailsField>
            <DetailsField label="Bytes in">
              {formatBytes(record.bytesIn)} ({record.bytesIn.toLocaleString('en')} bytes)
            </DetailsField>
            <DetailsField label="Bytes out">
              {formatBytes(record.bytesOut)} ({record.bytesOut.toLocaleString('en')} bytes)
            </DetailsField>
          </DetailsList>
          {capture ? (
            <CapturedExchangeView capture={capture} />
          ) : full.data?.id === record.id && record.apiId ? (
            <Alert severity="info" sx={{ mt: 2 }} data-testid="capture-off-hint">
              Headers and bodies are not kept for this request. To see them, turn on “Capture headers and
              bodies” on the API’s page; requests after that keep them.
            </Alert>
          ) : null}
        </>
      ) : null}
    </DetailsDrawer>
  );
}
