import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { describeError } from '../../../../api/api-errors.js';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { errorText } from '../error-text.js';
import { ForwardedHeaders } from './ForwardedHeaders.js';
import { headerOrigins } from './header-origins.js';
import { describePlace, previewEntryOf, type SampleDraft } from './preview-request.js';
import { readSampleUrl } from './sample-url.js';
import { SampleRequestFields } from './SampleRequestFields.js';
import type { PreviewResult, TargetPreview } from './use-target-preview.js';

export interface TargetUrlPreviewProps {
  preview: TargetPreview;
  sample: SampleDraft;
  onSampleChange: (sample: SampleDraft) => void;
  defaultMethod: string;
  defaultUrl: string;
  basePath: string;
  /** The keys of the entry's header rows in their order: a rule's number is its row's. */
  headerRowKeys: readonly number[];
  /** A reference still being typed: the errors from there on are not shown yet. */
  openReference?: OpenReference;
}

/** Where a reference is being typed: the preview's place (`section2`, `header:0`) and its `{{`. */
export interface OpenReference {
  place: string;
  from: number;
}

/** The forwarded headers of a result, each with the rule (by row number), sample or gateway it came from. */
function forwardedHeadersOf(result: PreviewResult, headerRowKeys: readonly number[]) {
  const rules = (previewEntryOf(result.request)?.headers ?? []).map((entry, index) => ({
    entry,
    number: headerRowKeys.indexOf(result.rowKeys[index] ?? -1) + 1,
  }));
  return headerOrigins(result.preview?.headers ?? {}, rules, result.request.sample?.headers);
}

function PreviewContent({
  result,
  openReference,
}: {
  result: PreviewResult | undefined;
  openReference: OpenReference | undefined;
}) {
  if (!result) return <Typography sx={{ color: 'text.secondary' }}>Rendering the preview…</Typography>;
  if (result.failure !== undefined) {
    const described = describeError(result.failure);
    const messages = [...described.fieldMessages, ...described.extensionMessages];
    return (
      <Typography sx={errorText}>
        The preview failed: {described.title}
        {described.detail ? ` — ${described.detail}` : ''}
        {messages.length > 0 ? ` (${messages.join('; ')})` : ''}
      </Typography>
    );
  }
  const preview = result.preview!;
  if (previewEntryOf(result.request)?.target.section1 === '') {
    return (
      <Typography sx={{ color: 'text.secondary' }}>
        Fill in Target URL section 1 (the target server) to see the URL.
      </Typography>
    );
  }
  if (preview.targetUrl !== null && preview.errors.length === 0) {
    return (
      <Box
        component="code"
        data-testid="target-url-text"
        sx={{ fontFamily: MONOSPACE_FONT, fontSize: '0.95rem', wordBreak: 'break-all' }}
      >
        {preview.targetUrl}
      </Box>
    );
  }
  const errors = preview.errors.filter(
    (error) =>
      !(openReference && error.place === openReference.place && error.position >= openReference.from),
  );
  if (errors.length === 0) {
    return (
      <Typography sx={{ color: 'text.secondary' }} data-testid="preview-typing">
        Finish the reference you are typing to see the URL.
      </Typography>
    );
  }
  return (
    <Box component="ul" sx={(theme) => ({ m: 0, pl: 2.5, ...errorText(theme) })}>
      {errors.map((error, index) => (
        <li key={index}>
          {describePlace(error.place)}
          {error.place.startsWith('section') ? `, character ${error.position + 1}` : ''}: {error.message}
        </li>
      ))}
    </Box>
  );
}

/**
 * The resulting target URL of the unsaved configuration for an editable sample request, rendered by the server
 * with the gateway's own code (secrets as ********).
 */
export function TargetUrlPreview({
  preview,
  sample,
  onSampleChange,
  defaultMethod,
  defaultUrl,
  basePath,
  headerRowKeys,
  openReference,
}: TargetUrlPreviewProps) {
  const headingId = useId();
  const sampleId = useId();
  const [sampleOpen, setSampleOpen] = useState(false);
  const { state, result } = preview;
  const pending = state === 'pending';
  const method = sample.method || defaultMethod;
  const reading = readSampleUrl(sample.url.trim() || defaultUrl, basePath);

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="h3" id={headingId}>
          Preview
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
          For the request{' '}
          <Box component="code" sx={{ wordBreak: 'break-all' }} data-testid="preview-request-line">
            {method} {reading.shown}
          </Box>
          {reading.note ? (
            <Box component="span" sx={{ display: 'block' }} data-testid="preview-sample-note">
              {reading.note}
            </Box>
          ) : null}
        </Typography>
        <Button
          size="small"
          aria-expanded={sampleOpen}
          aria-controls={sampleId}
          endIcon={sampleOpen ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          onClick={() => setSampleOpen((open) => !open)}
        >
          Sample request
        </Button>
      </Box>
      <Collapse in={sampleOpen} id={sampleId}>
        <SampleRequestFields
          sample={sample}
          onChange={onSampleChange}
          defaultMethod={defaultMethod}
          defaultUrl={defaultUrl}
        />
      </Collapse>
      <Box sx={{ height: 4, my: 1 }}>
        {pending ? <LinearProgress aria-label="Updating the preview" sx={{ height: 4 }} /> : null}
      </Box>
      <Box
        data-testid="target-url-preview"
        data-preview-state={state}
        aria-live="polite"
        aria-busy={pending}
        sx={{
          p: 1.5,
          borderRadius: 1,
          bgcolor: 'action.hover',
          // Pending is shown by the progress bar above: dimmed text would fall below the contrast minimum.
          borderLeft: 3,
          borderColor: pending ? 'action.disabled' : 'primary.main',
          minHeight: 44,
        }}
      >
        <Typography component="div" variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
          Target URL
        </Typography>
        <PreviewContent result={result} openReference={openReference} />
      </Box>
      {result?.preview && result.preview.errors.length === 0 ? (
        <ForwardedHeaders headers={forwardedHeadersOf(result, headerRowKeys)} />
      ) : null}
    </Paper>
  );
}
