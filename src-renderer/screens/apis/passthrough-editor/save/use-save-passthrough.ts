import { useState } from 'react';
import { isProblem } from '../../../../api/api-errors.js';
import type { ApiDefinition } from '../../../../api/types.js';
import { policiesApi } from '../../../../api/endpoints.js';
import { passthroughApi } from '../../../../api/passthrough-endpoints.js';
import type { Passthrough } from '../../../../api/types.js';
import type { Policy } from '../../../../api/types.js';
import { useNotifier } from '../../../../notifications/notifier-context.js';
import { useApiClient } from '../../../../session/session-context.js';
import { toConfiguration, type PassthroughDraft } from '../draft/editor-draft.js';
import { parseSaveErrors, type SaveErrors } from '../draft/save-errors.js';
import { grantOf, type PolicyChoice } from './policy-choice.js';

export interface SavePassthrough {
  saving: boolean;
  /** Why the last save failed (400, 409, 422, …); cleared by the next save. */
  failure: unknown;
  /** The validation errors of a 400, sorted by entry. */
  errors: SaveErrors | undefined;
  save: (draft: PassthroughDraft, policy: PolicyChoice) => Promise<void>;
  dismiss: () => void;
}

/**
 * Saves (and so deploys) the configuration: POST with the access policy in the same request when there is none
 * yet, PUT with the loaded revision otherwise (then a policy is created on its own, after the save).
 */
export function useSavePassthrough(
  api: ApiDefinition,
  existing: Passthrough | null,
  onSaved: (passthrough: Passthrough) => void,
): SavePassthrough {
  const client = useApiClient();
  const { notify, notifyError } = useNotifier();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [errors, setErrors] = useState<SaveErrors | undefined>(undefined);

  const addPolicyAfterwards = async (policy: PolicyChoice): Promise<Policy | undefined> => {
    const agentGroupId = api.agentGroupIds[0];
    if (!policy.add || agentGroupId === undefined) return undefined;
    try {
      return await policiesApi.create(client, {
        name: `${api.name} passthrough`,
        agentGroupId,
        endpoints: [{ method: 'ALL', pathPrefix: api.basePath }],
        grants: [grantOf(policy)],
      });
    } catch (error) {
      notifyError(error, 'The configuration was saved, but creating the access policy failed');
      return undefined;
    }
  };

  const save = async (draft: PassthroughDraft, policy: PolicyChoice) => {
    const configuration = toConfiguration(draft);
    setSaving(true);
    setFailure(undefined);
    setErrors(undefined);
    try {
      let saved: Passthrough;
      let createdPolicy: Policy | undefined;
      if (existing) {
        saved = await passthroughApi.replace(client, api.id, {
          ...configuration,
          revision: existing.revision,
        });
        createdPolicy = await addPolicyAfterwards(policy);
      } else {
        const created = await passthroughApi.create(client, api.id, {
          ...configuration,
          ...(policy.add ? { policy: { grants: [grantOf(policy)] } } : {}),
        });
        saved = created.passthrough;
        createdPolicy = created.policy;
      }
      notify({
        severity: 'success',
        title: existing ? 'Passthrough saved and deployed' : 'Passthrough API created and deployed',
        ...(createdPolicy ? { detail: `Access policy “${createdPolicy.name}” created.` } : {}),
      });
      onSaved(saved);
    } catch (error) {
      setFailure(error);
      if (isProblem(error, 'GH_ERR_VALIDATION')) {
        setErrors(parseSaveErrors(error.errors, configuration));
      }
    } finally {
      setSaving(false);
    }
  };

  return {
    saving,
    failure,
    errors,
    save,
    dismiss: () => {
      setFailure(undefined);
      setErrors(undefined);
    },
  };
}
