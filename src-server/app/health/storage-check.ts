import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { HealthCheck } from '../../core/health/health-endpoints.js';
import type { Tenant } from '../tenant.js';

const CHECK_TIMEOUT_MS = 2_000;

/**
 * Whether this instance's storage answers: the database answers a round trip (on SQLite, its data dir is
 * writable too) and the monitoring store is open. Bounded: a database that hangs fails the check after two
 * seconds.
 */
export function storageCheck(tenant: Tenant): () => Promise<HealthCheck> {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<HealthCheck>((resolve) => {
      timer = setTimeout(
        () => resolve({ status: 'fail', detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
        CHECK_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([probe(tenant), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}

async function probe(tenant: Tenant): Promise<HealthCheck> {
  if (tenant.database.kind === 'sqlite') {
    try {
      await access(tenant.dataDir, constants.W_OK);
    } catch (error) {
      return {
        status: 'fail',
        detail: `the data dir is not writable (${(error as NodeJS.ErrnoException).code})`,
      };
    }
  }
  try {
    await tenant.database.ping();
  } catch (error) {
    return { status: 'fail', detail: `the database does not answer (${(error as Error).name})` };
  }
  try {
    await tenant.monitoring.store();
  } catch (error) {
    return { status: 'fail', detail: `the monitoring store is not open (${(error as Error).name})` };
  }
  return { status: 'pass' };
}
