import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CapturedBody, CapturedExchange } from '../../api/types.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';
import { formatBytes } from './outcome-labels.js';

const block = {
  fontFamily: MONOSPACE_FONT,
  fontSize: '0.8125rem',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  bgcolor: 'action.hover',
  borderRadius: 1,
  p: 1.5,
  m: 0,
  maxHeight: 360,
  overflow: 'auto',
} as const;

/** What a body shows after its headers: its text, or a line saying why not, and whether it was cut. */
function bodyText(body: CapturedBody | null, maxBodyBytes: number): { text: string; note?: string } {
  if (body === null) return { text: '', note: 'No body.' };
  if (body.binary) {
    return {
      text: '',
      note: `Binary body: ${formatBytes(body.bytes)} (${body.bytes.toLocaleString('en')} bytes)${body.contentType ? `, ${body.contentType}` : ''}; not shown.`,
    };
  }
  return {
    text: body.text ?? '',
    ...(body.truncated
      ? {
          note: `Truncated: the first ${maxBodyBytes.toLocaleString('en')} of ${body.bytes.toLocaleString('en')} bytes are kept.`,
        }
      : {}),
  };
}

function Message({
  title,
  testId,
  startLine,
  headers,
  body,
  maxBodyBytes,
}: {
  title: string;
  testId: string;
  startLine: string;
  headers: readonly { name: string; value: string }[];
  body: CapturedBody | null;
  maxBodyBytes: number;
}) {
  const shown = bodyText(body, maxBodyBytes);
  const head = [startLine, ...headers.map(({ name, value }) => `${name}: ${value}`)].join('\n');
  return (
    <Box sx={{ mt: 2 }} data-testid={testId}>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {/* Scrollable, so focusable: keyboard users scroll a long body too. */}
      <Box
        component="pre"
        sx={block}
        tabIndex={0}
        role="region"
        aria-label={`${title}: start line, headers and body`}
      >
        {head}
        {shown.text ? `\n\n${shown.text}` : ''}
      </Box>
      {shown.note ? (
        <Typography variant="body2" sx={{ mt: 0.5, color: 'text.secondary' }} data-testid={`${testId}-note`}>
          {shown.note}
        </Typography>
      ) : null}
    </Box>
  );
}

/** A captured exchange the way an HTTP client shows one: request line, headers, body; then the response. */
export function CapturedExchangeView({ capture }: { capture: CapturedExchange }) {
  const { request, response, maxBodyBytes } = capture;
  return (
    <Box sx={{ mt: 3 }} data-testid="captured-exchange">
      <Typography variant="h6" component="h2">
        Exchange
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        As the caller sent it and as the gateway answered; secrets are shown as ********.
      </Typography>
      <Message
        title="Request"
        testId="captured-request"
        startLine={`${request.method} ${request.target} HTTP/${request.httpVersion}`}
        headers={request.headers}
        body={request.body}
        maxBodyBytes={maxBodyBytes}
      />
      {response ? (
        <Message
          title="Response"
          testId="captured-response"
          startLine={`HTTP/1.1 ${response.status}`}
          headers={response.headers}
          body={response.body}
          maxBodyBytes={maxBodyBytes}
        />
      ) : (
        <Typography variant="body2" sx={{ mt: 2 }}>
          No response was sent.
        </Typography>
      )}
    </Box>
  );
}
