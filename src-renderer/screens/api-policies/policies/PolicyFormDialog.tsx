import { useState } from 'react';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { isProblem } from '../../../api/api-errors.js';
import { policiesApi } from '../../../api/endpoints.js';
import { THROTTLE_PERIODS, type AgentGroup, type Policy, type ThrottlePeriod } from '../../../api/types.js';
import { FormDialog } from '../../../components/FormDialog.js';
import { useFormSubmission } from '../../../hooks/use-form-submission.js';
import { useApiClient } from '../../../session/session-context.js';
import { agentGroupLabel } from '../policy-labels.js';
import { EndpointsEditor } from './EndpointsEditor.js';
import { GrantsEditor } from './GrantsEditor.js';
import {
  emptyPolicyDraft,
  policyDraftOf,
  policyProblemsOf,
  toCreatePolicy,
  toModifyPolicy,
  type PolicyDraft,
} from './policy-draft.js';

export interface PolicyFormDialogProps {
  /** Absent: a new policy. */
  policy?: Policy;
  agentGroups: AgentGroup[];
  /** The agent group a new policy starts with (the list's filter). */
  defaultAgentGroupId: string;
  onClose: () => void;
  onSaved: (policy: Policy) => void;
}

function ThrottleFields({
  draft,
  update,
  problem,
}: {
  draft: PolicyDraft;
  update: (change: Partial<PolicyDraft>) => void;
  problem: string | undefined;
}) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 0.5 }}>
        Throttle
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={draft.throttled}
            onChange={(event) => update({ throttled: event.target.checked })}
          />
        }
        label="Limit the number of requests"
      />
      {draft.throttled ? (
        <Box sx={{ display: 'flex', gap: 2, mt: 1, alignItems: 'flex-start' }}>
          <TextField
            size="small"
            type="number"
            label="Requests at most"
            value={draft.limit}
            onChange={(event) => update({ limit: event.target.value })}
            error={problem !== undefined}
            helperText={problem}
            slotProps={{ htmlInput: { min: 1, step: 1 } }}
            sx={{ width: 200 }}
          />
          <TextField
            select
            size="small"
            label="Per"
            value={draft.per}
            onChange={(event) => update({ per: event.target.value as ThrottlePeriod })}
            sx={{ width: 150 }}
          >
            {THROTTLE_PERIODS.map((period) => (
              <MenuItem key={period} value={period}>
                {period}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      ) : null}
    </Box>
  );
}

/** Create or change an API policy: name, agent group, endpoints, grants and throttle. */
export function PolicyFormDialog({
  policy,
  agentGroups,
  defaultAgentGroupId,
  onClose,
  onSaved,
}: PolicyFormDialogProps) {
  const client = useApiClient();
  const [draft, setDraft] = useState<PolicyDraft>(() =>
    policy ? policyDraftOf(policy) : emptyPolicyDraft(defaultAgentGroupId),
  );
  const { submitted, saving, error, submit } = useFormSubmission();
  const allProblems = policyProblemsOf(draft);
  const problems = submitted ? allProblems : {};
  const nameErrors = [
    ...(problems.name ? [problems.name] : []),
    ...(isProblem(error, 'GH_ERR_VALIDATION', 'GH_ERR_ALREADY_EXISTS') ? error.fieldErrors('name') : []),
  ];
  const update = (change: Partial<PolicyDraft>) => setDraft((current) => ({ ...current, ...change }));

  return (
    <FormDialog
      titleId="policy-form-title"
      title={policy ? `Edit policy ${policy.name}` : 'New API policy'}
      maxWidth="md"
      submitLabel={policy ? 'Save' : 'Create'}
      saving={saving}
      failure={nameErrors.length === 0 ? error : undefined}
      failureContext={policy ? 'Saving the policy failed' : 'Creating the policy failed'}
      onSubmit={() =>
        void submit(Object.keys(allProblems).length === 0, async () => {
          onSaved(
            policy
              ? await policiesApi.modify(client, policy.id, toModifyPolicy(draft))
              : await policiesApi.create(client, toCreatePolicy(draft)),
          );
        })
      }
      onClose={onClose}
    >
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 1 }}>
        <TextField
          autoFocus
          required
          size="small"
          label="Policy name"
          value={draft.name}
          onChange={(event) => update({ name: event.target.value })}
          error={nameErrors.length > 0}
          helperText={nameErrors.join(' ') || undefined}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          sx={{ flex: '2 1 280px' }}
        />
        <TextField
          select
          required
          size="small"
          label="Agent group"
          value={draft.agentGroupId}
          onChange={(event) => update({ agentGroupId: event.target.value })}
          error={problems.agentGroupId !== undefined}
          helperText={problems.agentGroupId ?? 'Policies apply to the gateway of this group.'}
          sx={{ flex: '1 1 220px' }}
        >
          {agentGroups.map((group) => (
            <MenuItem key={group.id} value={group.id}>
              {agentGroupLabel(group)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Divider sx={{ my: 2.5 }} />
      <EndpointsEditor
        endpoints={draft.endpoints}
        onChange={(endpoints) => update({ endpoints })}
        problems={problems}
      />
      <Divider sx={{ my: 2.5 }} />
      <GrantsEditor grants={draft.grants} onChange={(grants) => update({ grants })} problems={problems} />
      <Divider sx={{ my: 2.5 }} />
      <ThrottleFields draft={draft} update={update} problem={problems.limit} />
      {submitted && Object.keys(allProblems).length > 0 ? (
        <Typography role="alert" variant="body2" sx={{ color: 'error.main', mt: 2 }}>
          Correct the highlighted fields.
        </Typography>
      ) : null}
    </FormDialog>
  );
}
