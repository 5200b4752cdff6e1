import { useState } from 'react';
import { apisApi } from '../../api/apis-endpoints.js';
import { agentGroupsApi, tenantApi } from '../../api/endpoints.js';
import { passthroughApi } from '../../api/passthrough-endpoints.js';
import { tryItApi } from '../../api/try-it-endpoints.js';
import type { ApiSummary, TryItResult } from '../../api/types.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { useApiClient } from '../../session/session-context.js';
import { callerUrlOf } from '../apis/api-paths.js';
import { SAMPLE_API, echoPassthroughTarget } from './sample-api.js';

export type StepName = 'import' | 'forward' | 'send';

export interface GettingStarted {
  loading: boolean;
  loadError: unknown;
  reload: () => void;
  /** The sample API, once imported (now or on an earlier run). */
  api:
    | Pick<ApiSummary, 'id' | 'name' | 'basePath' | 'operationCount' | 'passthroughId' | 'agentGroupIds'>
    | undefined;
  echoTargetUrl: string | undefined;
  /** Where callers reach the sample API on the default group's gateway. */
  callerUrl: string | undefined;
  sent: TryItResult | undefined;
  /** The step running now. */
  busy: StepName | undefined;
  /** Why the last step failed, by step. */
  failure: { step: StepName; error: unknown } | undefined;
  run: (step: StepName) => void;
}

/**
 * The first-run path: import the bundled sample, forward it to the built-in echo target (with a public policy, so
 * a request needs no key), send a request through the gateway. What is done is read from the server, so the page
 * picks up where an earlier visit left off.
 */
export function useGettingStarted(): GettingStarted {
  const client = useApiClient();
  const apis = useApiQuery('apis', (apiClient, signal) => apisApi.list(apiClient, { signal }));
  const status = useApiQuery('control-panel', (apiClient, signal) =>
    tenantApi.controlPanel(apiClient, { signal }),
  );
  const groups = useApiQuery('agent-groups', (apiClient, signal) =>
    agentGroupsApi.list(apiClient, { signal }),
  );
  const [busy, setBusy] = useState<StepName | undefined>(undefined);
  const [failure, setFailure] = useState<GettingStarted['failure']>(undefined);
  const [sent, setSent] = useState<TryItResult | undefined>(undefined);
  const [imported, setImported] = useState<GettingStarted['api']>(undefined);
  const [forwarded, setForwarded] = useState(false);

  const listed = apis.data?.find((candidate) => candidate.basePath === SAMPLE_API.basePath);
  const api = imported ?? listed;
  const current = api && { ...api, passthroughId: forwarded ? 'created' : api.passthroughId };
  const groupId = api?.agentGroupIds[0] ?? 'default';
  const listener = groups.data?.find((group) => group.id === groupId);
  const echoTargetUrl = status.data?.echoTargetUrl;

  const steps: Record<StepName, () => Promise<void>> = {
    async import() {
      const result = await client.post<{ api: ApiSummary }>('/api/v1/apis', SAMPLE_API.document);
      setImported(result.api);
    },
    async forward() {
      if (!api || !echoTargetUrl) return;
      await passthroughApi.create(client, api.id, {
        allOperations: { target: echoPassthroughTarget(echoTargetUrl) },
        policy: { name: SAMPLE_API.policyName, grants: [{ type: 'public' }] },
      });
      setForwarded(true);
    },
    async send() {
      if (!api) return;
      setSent(await tryItApi.send(client, api.id, { ...SAMPLE_API.request }));
    },
  };

  const run = (step: StepName) => {
    setBusy(step);
    setFailure(undefined);
    steps[step]().then(
      () => setBusy(undefined),
      (error: unknown) => {
        setFailure({ step, error });
        setBusy(undefined);
      },
    );
  };

  return {
    loading: [apis, status, groups].some((query) => query.loading && !query.data),
    loadError: apis.error ?? status.error ?? groups.error,
    reload: () => {
      apis.reload();
      status.reload();
      groups.reload();
    },
    api: current,
    echoTargetUrl,
    callerUrl: listener?.listenerUrl && api ? callerUrlOf(listener.listenerUrl, api.basePath) : undefined,
    sent,
    busy,
    failure,
    run,
  };
}
