import { launchGatehouse, type Gatehouse, type GatehouseOptions } from '../gatehouse.js';
import { WorkerPool } from './worker-pool.js';

/**
 * `gatehouse serve --workers N`: the Control Panel, the stores and the background jobs in this (primary)
 * process, the gateway listeners in N worker processes sharing their ports.
 */
export function startGatehouseWithWorkers(
  options: GatehouseOptions & { workers: number },
): Promise<Gatehouse<WorkerPool>> {
  return launchGatehouse(options, async ({ tenant, settings, instance, storage }) => {
    const pool = new WorkerPool({
      count: options.workers,
      tenant,
      settings,
      instance,
      storage,
      logger: tenant.logger,
    });
    await pool.start();
    return pool;
  });
}
