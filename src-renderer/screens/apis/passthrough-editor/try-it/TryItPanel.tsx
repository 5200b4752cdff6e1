import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { ApiProblemError } from '../../../../api/api-errors.js';
import type { TryItRequest } from '../../../../api/types.js';
import { ProblemAlert } from '../../../../components/ProblemAlert.js';
import { useCan } from '../../../../session/session-context.js';
import { TryItRequestForm } from './TryItRequestForm.js';
import { TryItResultView } from './TryItResultView.js';
import { initialDraft, toTryRequest } from './try-it-draft.js';
import { useTryIt } from './use-try-it.js';
import { useTryTarget } from './use-try-target.js';

export interface TryItPanelProps {
  apiId: string;
  /** The selected operation's method (anything else, e.g. `*` for All operations, starts as GET). */
  method: string;
  /** The operation's path under the base path; may hold `{param}` placeholders. */
  path: string;
  /**
   * The editor's unsaved configuration, when it differs from the saved one (or none is saved yet), with the
   * access policy the save would create.
   */
  unsaved?: TryItRequest['draft'];
}

/**
 * "Try it" of the Passthrough editor: sends one real request through the gateway and shows what it forwarded
 * and answered. Choosing another operation starts afresh.
 */
export function TryItPanel(props: TryItPanelProps) {
  return <TryItPanelContent key={`${props.apiId}\u0000${props.method}\u0000${props.path}`} {...props} />;
}

export default TryItPanel;

function TryItPanelContent({ apiId, method, path, unsaved }: TryItPanelProps) {
  const [useUnsaved, setUseUnsaved] = useState(true);
  const sendsDraft = unsaved !== undefined && useUnsaved;
  const [tried, setTried] = useState<'draft' | 'saved'>('saved');
  const can = useCan();
  const allowed = can('Passthroughs.Try');
  const [draft, setDraft] = useState(() => initialDraft(method, path));
  const tryIt = useTryIt(apiId);
  const target = useTryTarget(apiId);
  const errors = tryIt.error instanceof ApiProblemError ? tryIt.error.errors : {};

  return (
    <Box component="section" aria-labelledby="try-it-title" data-testid="try-it-panel">
      <Typography variant="h3" component="h3" id="try-it-title">
        Try it
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5, mb: 2 }}>
        Sends a real request through the gateway of the API&apos;s agent group, with the API policies and the
        configuration below: the unsaved changes run for this one request only, nothing is deployed. Add the
        API key or token header a policy asks for.
      </Typography>
      {unsaved ? (
        <FormControlLabel
          sx={{ mb: 1 }}
          control={<Switch checked={useUnsaved} onChange={(event) => setUseUnsaved(event.target.checked)} />}
          label="Try the unsaved changes (not deployed)"
        />
      ) : null}
      {allowed ? null : (
        <Alert severity="info" sx={{ mb: 2 }}>
          Your roles do not allow sending requests through the gateway.
        </Alert>
      )}
      <TryItRequestForm
        draft={draft}
        onChange={setDraft}
        onSend={() => {
          setTried(sendsDraft ? 'draft' : 'saved');
          tryIt.send({
            ...toTryRequest(draft, target.basePath),
            ...(sendsDraft ? { draft: unsaved } : {}),
          });
        }}
        onCancel={tryIt.cancel}
        sending={tryIt.sending}
        allowed={allowed}
        errors={errors}
        basePath={target.basePath}
        agentGroups={target.agentGroups}
      />
      <Box sx={{ mt: 2 }} aria-live="polite">
        {tryIt.sending ? <LinearProgress aria-label="Waiting for the answer" /> : null}
        {tryIt.error && !tryIt.sending ? (
          <ProblemAlert error={tryIt.error} context="Sending the request" />
        ) : null}
        {tryIt.result && !tryIt.error ? (
          <>
            <Divider sx={{ mb: 2 }} />
            <Typography variant="body2" sx={{ mb: 1 }} data-testid="try-it-configuration">
              {tried === 'draft'
                ? 'Answered with the unsaved changes (not deployed).'
                : 'Answered with the saved configuration.'}
            </Typography>
            <TryItResultView result={tryIt.result} />
          </>
        ) : null}
      </Box>
    </Box>
  );
}
