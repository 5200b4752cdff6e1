/**
 * The management API's payloads as the console uses them: the types of its contract (src-server/core/contracts,
 * the zod schemas that also validate the requests and generate the OpenAPI document at
 * `/swagger/v1/swagger.json`), imported as types only. Values the console needs at run time are in
 * contract-values.ts, checked against these types.
 */
import type {
  ApiSummary,
  MonitoringStatusCounts,
  ProblemDetails as ContractProblemDetails,
} from '../../src-server/core/contracts/index.js';

export type * from '../../src-server/core/contracts/index.js';
export * from './contract-values.js';

/** What the console reads from an error answer: a proxy or a refused connection may send less than the API does. */
export type ProblemDetails = Partial<ContractProblemDetails>;

export type MonitoringStatusClass = keyof MonitoringStatusCounts;

/** An API as the monitoring filters offer it (from `GET /api/v1/apis`). */
export type MonitoredApiChoice = Pick<ApiSummary, 'id' | 'name' | 'basePath'>;
