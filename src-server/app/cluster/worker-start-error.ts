import { ErrorCode } from '../../core/contracts/error-codes.js';
import { GatehouseError } from '../../core/errors/gatehouse-error.js';

/** A gateway worker process that could not start (`serve --workers`). */
export class WorkerStartError extends GatehouseError {
  override name = 'WorkerStartError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_WORKER_START_FAILED, message);
  }
}
