import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { PageHeader } from '../../components/PageHeader.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { navigate } from '../../router/history.js';
import { useCan } from '../../session/session-context.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';
import { apiDetailsPath, passthroughEditorPath } from '../apis/api-paths.js';
import { SAMPLE_API } from './sample-api.js';
import { useGettingStarted, type StepName } from './use-getting-started.js';

const mono = { fontFamily: MONOSPACE_FONT, fontSize: '0.875rem', wordBreak: 'break-all' } as const;

interface StepProps {
  number: number;
  title: string;
  done: boolean;
  children: ReactNode;
}

function Step({ number, title, done, children }: StepProps) {
  const headingId = `getting-started-step-${number}`;
  return (
    <Paper
      component="li"
      variant="outlined"
      aria-labelledby={headingId}
      data-step-done={done}
      sx={{ p: 2.5, display: 'flex', gap: 2, alignItems: 'flex-start' }}
    >
      {done ? (
        <CheckCircleIcon color="success" aria-hidden sx={{ mt: 0.25 }} />
      ) : (
        <RadioButtonUncheckedIcon aria-hidden sx={{ mt: 0.25, color: 'text.secondary' }} />
      )}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h2" id={headingId} sx={{ fontSize: '1.1rem', mb: 1 }}>
          {number}. {title}
          <span className="visually-hidden">{done ? ' (done)' : ''}</span>
        </Typography>
        {children}
      </Box>
    </Paper>
  );
}

/** `/getting-started`: from nothing to a request seen in API monitoring, one click per step. */
export default function GettingStartedScreen() {
  const can = useCan();
  const flow = useGettingStarted();
  const { api, busy, failure, sent } = flow;
  const allowed =
    can('Apis.Import') && can('Passthroughs.Create') && can('Policies.Create') && can('Passthroughs.Try');
  const imported = api !== undefined;
  const forwardedApi = api?.passthroughId != null ? api : undefined;
  const forwarded = forwardedApi !== undefined;
  const failureOf = (step: StepName) =>
    failure?.step === step ? (
      <Box sx={{ mt: 1.5 }}>
        <ProblemAlert error={failure.error} context="That step failed" />
      </Box>
    ) : null;
  const action = (step: StepName, label: string, enabled: boolean) => (
    <Button
      variant="contained"
      onClick={() => flow.run(step)}
      loading={busy === step}
      disabled={!allowed || !enabled || (busy !== undefined && busy !== step)}
    >
      {label}
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Getting started"
        description={
          <>
            From nothing to a request you can see in API monitoring, one click per step. No backend is needed:
            the passthrough forwards to the echo target built into Gatehouse, which answers every request with
            the request it received.
          </>
        }
      />
      {flow.loading ? <LinearProgress aria-label="Loading" sx={{ mb: 2 }} /> : null}
      {flow.loadError ? (
        <Box sx={{ mb: 2 }}>
          <ProblemAlert error={flow.loadError} context="Loading" onRetry={flow.reload} />
        </Box>
      ) : null}
      {!allowed ? (
        <Alert severity="info" role="status" sx={{ mb: 2 }}>
          These steps import an API and configure it: sign in as an Administrator or Operator to take them.
        </Alert>
      ) : null}
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, maxWidth: 900 }}>
        <Step number={1} title={`Open the sample ${SAMPLE_API.name}`} done={imported}>
          {api ? (
            <Typography>
              <Link href={apiDetailsPath(api.id)}>{api.name}</Link> is imported: base path{' '}
              <Box component="code" sx={mono}>
                {api.basePath}
              </Box>
              , {api.operationCount} operations, on the Default agent group.
            </Typography>
          ) : (
            <>
              <Typography sx={{ mb: 1.5 }}>
                An OpenAPI document that ships with Gatehouse: an inventory service with five operations under{' '}
                <code>{SAMPLE_API.basePath}</code>.
              </Typography>
              {action('import', 'Import the sample API', !flow.loading)}
            </>
          )}
          {failureOf('import')}
        </Step>

        <Step number={2} title="Forward it to the built-in echo target" done={forwarded}>
          {forwardedApi ? (
            <Typography>
              Every request under{' '}
              <Box component="code" sx={mono} data-testid="getting-started-caller-url">
                {flow.callerUrl ?? forwardedApi.basePath}
              </Box>{' '}
              goes to{' '}
              <Box component="code" sx={mono}>
                {flow.echoTargetUrl ?? 'the echo target'}
              </Box>
              . <Link href={passthroughEditorPath(forwardedApi.id)}>Open the Passthrough editor</Link> to see
              how.
            </Typography>
          ) : (
            <>
              <Typography sx={{ mb: 1.5 }}>
                A Passthrough API for all operations, with the target{' '}
                <Box component="code" sx={mono}>
                  {flow.echoTargetUrl ?? '…/echo'}
                  {'/{{#api.OperationPath}}?{{#api.QueryParameters}}'}
                </Box>
                , and an access policy that lets anyone call it (for trying it out; change it later under API
                policies).
              </Typography>
              {action('forward', 'Create the passthrough', imported && flow.echoTargetUrl !== undefined)}
            </>
          )}
          {failureOf('forward')}
        </Step>

        <Step number={3} title="Send a request" done={sent !== undefined}>
          <Typography sx={{ mb: 1.5 }}>
            A real request through the gateway:{' '}
            <Box component="code" sx={mono}>
              {SAMPLE_API.request.method} {api?.basePath ?? SAMPLE_API.basePath}
              {SAMPLE_API.request.path}
            </Box>
            .
          </Typography>
          {action('send', sent ? 'Send it again' : 'Send the request', forwarded)}
          {sent ? (
            <Box sx={{ mt: 1.5 }} data-testid="getting-started-response">
              <Typography>
                The gateway answered <strong>{sent.status}</strong> {sent.statusText} in{' '}
                {Math.round(sent.durationMs)} ms, after forwarding to{' '}
                <Box component="code" sx={mono}>
                  {sent.targetUrl ?? '—'}
                </Box>
                . What the echo target received:
              </Typography>
              <Box
                component="pre"
                // Scrolls when long: keyboard users reach it like any other scrolled region.
                tabIndex={0}
                role="region"
                aria-label="What the echo target received"
                sx={{
                  ...mono,
                  bgcolor: 'action.hover',
                  p: 1.5,
                  borderRadius: 1,
                  maxHeight: 240,
                  overflow: 'auto',
                }}
              >
                {sent.body}
              </Box>
            </Box>
          ) : null}
          {failureOf('send')}
        </Step>

        <Step number={4} title="See it in API monitoring" done={false}>
          <Typography sx={{ mb: 1.5 }}>
            Every request through the gateway is recorded, with its target URL, status and timing.
          </Typography>
          <Button
            variant="contained"
            disabled={!sent || !api}
            onClick={() => api && navigate(`/api-monitoring?apiId=${encodeURIComponent(api.id)}&range=15m`)}
          >
            Open API monitoring
          </Button>
          <Typography variant="body2" sx={{ mt: 1.5, color: 'text.secondary' }}>
            Each step above is also a change in the{' '}
            <Link href="/audit-log" data-testid="getting-started-audit-link">
              Audit log
            </Link>
            , under your name. Its endpoint is off until an Operator turns it on in Tenant settings; the Audit
            log screen says how.
          </Typography>
        </Step>
      </Box>
    </>
  );
}
