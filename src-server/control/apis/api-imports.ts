import { managementDeps } from '../common/management-deps.js';
import type { Tenant } from '../common/tenant.js';
import { ApiImportService } from './api-import-service.js';
import { ApiImportJobs } from './import-jobs.js';
import { WorkerImportRunner, type ImportRunner } from './import-pipeline/import-runner.js';

/**
 * The import machinery of a running server, kept across Control Panel restarts: the worker thread that reads
 * descriptions and the imports in progress.
 */
export interface ApiImports {
  runner: ImportRunner;
  jobs: ApiImportJobs;
  close: () => Promise<void>;
}

export function createApiImports(
  tenant: Tenant,
  runner: ImportRunner = new WorkerImportRunner(),
): ApiImports {
  const importer = new ApiImportService(managementDeps(tenant), runner);
  const jobs = new ApiImportJobs(
    (input, onProgress, signal) => importer.prepare(input, onProgress, signal),
    tenant.now,
  );
  return {
    runner,
    jobs,
    async close() {
      jobs.close();
      await runner.close();
    },
  };
}
