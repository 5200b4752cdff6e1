import { useCallback, useState } from 'react';
import { ApiProblemError, NetworkError } from '../../api/api-errors.js';
import { tenantApi } from '../../api/endpoints.js';
import type { ControlPanelStatus } from '../../api/types.js';
import { useApiClient } from '../../session/session-context.js';

export type RestartState =
  { phase: 'idle' } | { phase: 'requesting' } | { phase: 'waiting' } | { phase: 'failed'; error: unknown };

const POLL_INTERVAL_MS = 500;
const GIVE_UP_AFTER_MS = 90_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isTransient(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiProblemError && error.status >= 502);
}

export interface ControlPanelRestart {
  state: RestartState;
  /** Resolves with the status of the new Control Panel once `startedAt` changed. */
  restart: () => Promise<ControlPanelStatus | undefined>;
}

/**
 * POST …/control-panel/restart (202), then polls GET …/control-panel until `startedAt` changes. While the
 * listener is down the GETs fail to connect; those failures are expected and only mean "not back yet".
 */
export function useControlPanelRestart(): ControlPanelRestart {
  const client = useApiClient();
  const [state, setState] = useState<RestartState>({ phase: 'idle' });

  const restart = useCallback(async () => {
    setState({ phase: 'requesting' });
    try {
      const accepted = await tenantApi.restartControlPanel(client);
      setState({ phase: 'waiting' });
      const deadline = Date.now() + GIVE_UP_AFTER_MS;
      while (Date.now() < deadline) {
        await pause(POLL_INTERVAL_MS);
        try {
          const status = await tenantApi.controlPanel(client);
          if (status.startedAt !== accepted.previousStartedAt) {
            setState({ phase: 'idle' });
            return status;
          }
        } catch (error) {
          if (!isTransient(error)) throw error;
        }
      }
      throw new Error('The Control Panel did not come back within 90 seconds. Check the server log.');
    } catch (error) {
      setState({ phase: 'failed', error });
      return undefined;
    }
  }, [client]);

  return { state, restart };
}
