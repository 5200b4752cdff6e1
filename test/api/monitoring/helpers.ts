import fc from 'fast-check';
import { expect, vi } from 'vitest';
import type {
  MonitoringRecord,
  NewMonitoringRecord,
} from '../../../src-server/core/monitoring/monitoring-record.js';
import type { MonitoringFilter } from '../../../src-server/core/monitoring/monitoring-store.js';
import type { ListPage as ContractListPage } from '../../../src-server/core/contracts/index.js';
import type { TestServer } from '../../helpers/test-server.js';

export type ListPage = ContractListPage<MonitoringRecord>;

/** Hands records to the gateway's sink, waits until they are stored, and returns them with their ids. */
export async function recordThroughSink(
  server: TestServer,
  records: NewMonitoringRecord[],
): Promise<MonitoringRecord[]> {
  const { monitoring } = server.gatehouse;
  const store = await monitoring.store();
  const before = (await store.stats()).records;
  for (const record of records) monitoring.record(record);
  await monitoring.flush();
  const page = await store.query({ pageNumber: 1, pageSize: before + records.length + 1 });
  return page.items.filter((item) => item.id > before);
}

export async function getJson<T>(server: TestServer, path: string, roles = ['Auditor']): Promise<T> {
  const response = await server.api(path, { roles });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

/** The `errors` of a 400 ValidationProblemDetails. */
export async function validationErrors(server: TestServer, path: string): Promise<Record<string, string[]>> {
  const response = await server.api(path, { roles: ['Auditor'] });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return ((await response.json()) as { errors: Record<string, string[]> }).errors;
}

/** The same name in a random mix of cases: parameter names are case-insensitive. */
export function anyCase(name: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) =>
      upper.map((up, i) => (up ? name.charAt(i).toUpperCase() : name.charAt(i).toLowerCase())).join(''),
    );
}

/** Query string parts for a filter, names in random case. */
export function filterQuery(filter: MonitoringFilter): fc.Arbitrary<[string, string][]> {
  const parts: [string, string][] = [];
  if (filter.startMs !== undefined) parts.push(['startDateTimeUtc', new Date(filter.startMs).toISOString()]);
  if (filter.endMs !== undefined) parts.push(['endDateTimeUtc', new Date(filter.endMs).toISOString()]);
  if (filter.apiId !== undefined) parts.push(['apiId', filter.apiId]);
  if (filter.operation !== undefined) parts.push(['operation', filter.operation]);
  if (filter.status !== undefined) {
    parts.push([
      'status',
      'code' in filter.status ? String(filter.status.code) : `${filter.status.classOf}xx`,
    ]);
  }
  if (filter.method !== undefined) parts.push(['method', filter.method]);
  if (filter.minDurationMs !== undefined) parts.push(['minDurationMs', String(filter.minDurationMs)]);
  if (filter.pathPrefix !== undefined) parts.push(['path', filter.pathPrefix]);
  if (filter.agentGroupId !== undefined) parts.push(['agentGroupId', filter.agentGroupId]);
  if (filter.outcome !== undefined) parts.push(['outcome', filter.outcome]);
  if (filter.instance !== undefined) parts.push(['instance', filter.instance]);
  if (filter.viaAllOperations !== undefined)
    parts.push(['viaAllOperations', String(filter.viaAllOperations)]);
  if (parts.length === 0) return fc.constant([]);
  return fc.tuple(
    ...parts.map(([name, value]) => anyCase(name).map((spelled): [string, string] => [spelled, value])),
  );
}

export function toSearch(parts: readonly [string, string][]): string {
  const search = new URLSearchParams(parts as [string, string][]).toString();
  return search ? `?${search}` : '';
}

/** The stored record (with its capture) of the one request whose path is exactly `path`, once it is stored. */
export async function storedRecordOf(server: TestServer, path: string): Promise<MonitoringRecord> {
  let id = 0;
  await vi.waitFor(
    async () => {
      await server.gatehouse.monitoring.flush();
      const page = await getJson<ListPage>(server, `/api/v1/monitoring/requests?path=${path}`);
      const found = page.data.find((record) => record.path === path);
      expect(found).toBeDefined();
      id = found!.id;
    },
    { timeout: 5_000, interval: 20 },
  );
  return getJson<MonitoringRecord>(server, `/api/v1/monitoring/requests/${id}`);
}
