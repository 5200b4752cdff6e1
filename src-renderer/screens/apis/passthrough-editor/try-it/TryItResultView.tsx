import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TryItResult } from '../../../../api/types.js';
import { CopyButton } from '../../../../components/CopyButton.js';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { OUTCOME, formatBytes, formatDuration, statusColor } from '../../../api-monitoring/outcome-labels.js';
import { notForwardedReason, shownBody } from './response-view.js';

/** What the server keeps of a body. */
const KEPT_BODY_BYTES = 256 * 1024;

const mono = { fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem', wordBreak: 'break-all' } as const;

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0 }} data-testid={testId}>
        {children}
      </Typography>
    </Box>
  );
}

/** The gateway's answer: status, outcome, timing, the target URL it built, response headers and body. */
export function TryItResultView({ result }: { result: TryItResult }) {
  const outcome = result.outcome ? OUTCOME[result.outcome] : undefined;
  const body = shownBody(result);
  return (
    <Box component="section" aria-labelledby="try-it-response-title" data-testid="try-it-result">
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" component="h4" id="try-it-response-title">
          Response
        </Typography>
        <Chip
          size="small"
          color={statusColor(result.status)}
          label={`${result.status} ${result.statusText}`.trim()}
          data-testid="try-it-status"
        />
        {outcome ? (
          <Chip
            size="small"
            variant="outlined"
            color={outcome.color}
            label={outcome.label}
            title={outcome.description}
          />
        ) : null}
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="try-it-duration">
          {formatDuration(result.durationMs)} · {formatBytes(result.bodyBytes)} · via {result.agentGroup.name}
        </Typography>
      </Stack>

      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: 'max-content 1fr',
          columnGap: 2,
          rowGap: 0.75,
          mt: 1.5,
          mb: 0,
        }}
      >
        <Field label="Request">
          <span style={mono}>
            {result.request.method} {result.request.url}
          </span>
        </Field>
        <Field label="Target URL" testId="try-it-target-url">
          {result.targetUrl ? (
            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
              <span style={mono}>{result.targetUrl}</span>
              <CopyButton text={result.targetUrl} label="Copy the target URL" />
            </Box>
          ) : (
            <Box component="span" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
              {notForwardedReason(result)}
            </Box>
          )}
        </Field>
        {result.operation ? (
          <Field label="Operation">
            <span style={mono}>{result.operation === '*' ? '* (All operations)' : result.operation}</span>
          </Field>
        ) : null}
        <Field label="Trace">
          <span style={mono}>{result.request.traceparent}</span>
        </Field>
      </Box>

      <Typography variant="subtitle2" component="h5" sx={{ mt: 2, mb: 0.5 }}>
        Response headers
      </Typography>
      <Table size="small" aria-label="Response headers" data-testid="try-it-response-headers">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Value</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {result.headers.map((header, index) => (
            <TableRow key={`${header.name}-${index}`}>
              <TableCell sx={{ ...mono, width: '35%', verticalAlign: 'top' }}>{header.name}</TableCell>
              <TableCell sx={mono}>{header.value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>

      <Typography variant="subtitle2" component="h5" sx={{ mt: 2, mb: 0.5 }}>
        Response body
      </Typography>
      {result.bodyTruncated ? (
        <Alert severity="info" sx={{ mb: 1 }}>
          {result.bodyBytes > KEPT_BODY_BYTES
            ? `Only the first 256 KiB are shown, of ${result.bodyBytes.toLocaleString('en')} bytes received.`
            : `The body was cut short after ${result.bodyBytes.toLocaleString('en')} bytes.`}
        </Alert>
      ) : null}
      {body.kind === 'base64' ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
          Binary content, shown as base64.
        </Typography>
      ) : null}
      {body.kind === 'empty' ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
          No body.
        </Typography>
      ) : (
        <Box
          component="pre"
          tabIndex={0}
          aria-label="Response body"
          data-testid="try-it-body"
          sx={{
            ...mono,
            m: 0,
            p: 1.5,
            maxHeight: 420,
            overflow: 'auto',
            whiteSpace: body.kind === 'base64' ? 'pre-wrap' : 'pre',
            bgcolor: 'action.hover',
            borderRadius: 1,
          }}
        >
          {body.text}
        </Box>
      )}
    </Box>
  );
}
