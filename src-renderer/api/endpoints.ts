import type { ApiClient, DownloadedFile } from './api-client.js';
import type {
  Activity,
  ApiDefinition,
  AppRegistration,
  AppRegistrationWithSecret,
  AgentGroup,
  CreateAgentGroup,
  ApiKey,
  AuditEntryChanges,
  AuditExportFormat,
  AuditLogFilter,
  AuditLogPage,
  AuditLogQuery,
  AuditTenantList,
  AuditChainVerification,
  AuditVerificationRun,
  AuditTimeline,
  AuditTimelineSplit,
  SavedFilter,
  SavedFilterInput,
  SavedFilterList,
  AuditSource,
  AuditSourceInput,
  AuditSourcePatch,
  AuditSourceList,
  Backup,
  BackupOverview,
  ControlPanelStatus,
  CreateAppRegistration,
  CreateApiKey,
  CreatedApiKey,
  CreateEnvironment,
  CreateEnvironmentVariable,
  CreatePolicy,
  CurrentIdentity,
  Environment,
  ListPage,
  EnvironmentVariable,
  InstanceList,
  ModifyEnvironment,
  ModifyEnvironmentVariable,
  ModifyPolicy,
  MonitoredApiChoice,
  MonitoringQuery,
  MonitoringFilter,
  MonitoringRecord,
  MonitoringSummary,
  MonitoringSummaryInterval,
  Policy,
  SetEnvironmentVariableValues,
  RestartAccepted,
  SessionToken,
  SignInOptions,
  SettingValue,
  TenantSetting,
} from './types.js';
import { listAll } from './list-all.js';

type Signal = { signal?: AbortSignal };

export const sessionApi = {
  signIn: (client: ApiClient, ticket: string) =>
    client.post<SessionToken>('/api/v1/session/sign-in', { ticket }, { anonymous: true }),
  refresh: (client: ApiClient) => client.post<SessionToken>('/api/v1/session/refresh'),
  me: (client: ApiClient, { signal }: Signal = {}) => client.get<CurrentIdentity>('/api/v1/me', { signal }),
  options: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<SignInOptions>('/api/v1/session/options', { signal, anonymous: true }),
};

export const activitiesApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<Activity[]> =>
    await listAll<Activity>(client, '/api/v1/activities', { signal }),
};

export const auditLogApi = {
  list: (client: ApiClient, query: AuditLogQuery, { signal }: Signal = {}) =>
    client.get<AuditLogPage>('/api/v1/audit-log', { query: { ...query }, signal }),
  tenants: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<AuditTenantList>('/api/v1/audit-log/tenants', { signal }),
  changes: (client: ApiClient, id: number, tenant: string | undefined, { signal }: Signal = {}) =>
    client.get<AuditEntryChanges>(`/api/v1/audit-log/entries/${id}/changes`, {
      query: tenant ? { tenant } : {},
      signal,
    }),
  timeline: (
    client: ApiClient,
    query: AuditLogFilter & { splitBy: AuditTimelineSplit },
    { signal }: Signal = {},
  ) => client.get<AuditTimeline>('/api/v1/audit-log/timeline', { query: { ...query }, signal }),
  export: (client: ApiClient, format: AuditExportFormat, filter: AuditLogFilter): Promise<DownloadedFile> =>
    client.download('/api/v1/audit-log/export', `audit-log.${format}`, { query: { format, ...filter } }),
  verify: (client: ApiClient, tenant: string, { signal }: Signal = {}) =>
    client.get<AuditChainVerification>('/api/v1/audit-log/verification', { query: { tenant }, signal }),
  startVerification: (client: ApiClient, tenant: string) =>
    client.post<AuditVerificationRun>('/api/v1/audit-log/verification/runs', undefined, {
      query: { tenant },
    }),
  verification: (client: ApiClient, runId: string, { signal }: Signal = {}) =>
    client.get<AuditVerificationRun>(`/api/v1/audit-log/verification/runs/${encodeURIComponent(runId)}`, {
      signal,
    }),
};

export const savedFiltersApi = {
  list: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<SavedFilterList>('/api/v1/audit-log/saved-filters', { signal }),
  create: (client: ApiClient, input: SavedFilterInput) =>
    client.post<SavedFilter>('/api/v1/audit-log/saved-filters', input),
  remove: (client: ApiClient, id: string) =>
    client.delete(`/api/v1/audit-log/saved-filters/${encodeURIComponent(id)}`),
};

export const tenantApi = {
  settings: async (client: ApiClient, { signal }: Signal = {}): Promise<TenantSetting[]> =>
    await listAll<TenantSetting>(client, '/api/v1/tenant/settings', { signal }),
  setSetting: (client: ApiClient, key: string, value: SettingValue) =>
    client.put<TenantSetting>(`/api/v1/tenant/settings/${encodeURIComponent(key)}`, { value }),
  controlPanel: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<ControlPanelStatus>('/api/v1/tenant/control-panel', { signal }),
  restartControlPanel: (client: ApiClient) =>
    client.post<RestartAccepted>('/api/v1/tenant/control-panel/restart'),
  backups: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<BackupOverview>('/api/v1/tenant/backups', { signal }),
  startBackup: (client: ApiClient) => client.post<Backup>('/api/v1/tenant/backups'),
};

export const auditSourcesApi = {
  list: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<AuditSourceList>('/api/v1/audit-sources', { signal }),
  get: (client: ApiClient, name: string, { signal }: Signal = {}) =>
    client.get<AuditSource>(`/api/v1/audit-sources/${encodeURIComponent(name)}`, { signal }),
  create: (client: ApiClient, input: AuditSourceInput) =>
    client.post<AuditSource>('/api/v1/audit-sources', input),
  patch: (client: ApiClient, name: string, patch: AuditSourcePatch) =>
    client.patch<AuditSource>(`/api/v1/audit-sources/${encodeURIComponent(name)}`, patch),
  remove: (client: ApiClient, name: string) =>
    client.delete(`/api/v1/audit-sources/${encodeURIComponent(name)}`),
  sync: (client: ApiClient, name: string) =>
    client.post<AuditSource>(`/api/v1/audit-sources/${encodeURIComponent(name)}/sync`),
};

export const appRegistrationsApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<AppRegistration[]> =>
    await listAll<AppRegistration>(client, '/api/v1/app-registrations', { signal }),
  create: (client: ApiClient, request: CreateAppRegistration) =>
    client.post<AppRegistrationWithSecret>('/api/v1/app-registrations', request),
  rotateSecret: (client: ApiClient, id: string) =>
    client.post<AppRegistrationWithSecret>(`/api/v1/app-registrations/${encodeURIComponent(id)}/secret`),
  remove: (client: ApiClient, id: string) =>
    client.delete(`/api/v1/app-registrations/${encodeURIComponent(id)}`),
};

const byId = (id: string) => encodeURIComponent(id);

export const environmentsApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<Environment[]> =>
    await listAll<Environment>(client, '/api/v1/environments', { signal }),
  create: (client: ApiClient, request: CreateEnvironment) =>
    client.post<Environment>('/api/v1/environments', request),
  modify: (client: ApiClient, id: string, request: ModifyEnvironment) =>
    client.patch<Environment>(`/api/v1/environments/${byId(id)}`, request),
  remove: (client: ApiClient, id: string) => client.delete(`/api/v1/environments/${byId(id)}`),
};

export const agentGroupsApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<AgentGroup[]> =>
    await listAll<AgentGroup>(client, '/api/v1/agent-groups', { signal }),
  create: (client: ApiClient, request: CreateAgentGroup) =>
    client.post<AgentGroup>('/api/v1/agent-groups', request),
  remove: (client: ApiClient, id: string) => client.delete(`/api/v1/agent-groups/${byId(id)}`),
};

export const environmentVariablesApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<EnvironmentVariable[]> =>
    await listAll<EnvironmentVariable>(client, '/api/v1/environment-variables', { signal }),
  create: (client: ApiClient, request: CreateEnvironmentVariable) =>
    client.post<EnvironmentVariable>('/api/v1/environment-variables', request),
  modify: (client: ApiClient, id: string, request: ModifyEnvironmentVariable) =>
    client.patch<EnvironmentVariable>(`/api/v1/environment-variables/${byId(id)}`, request),
  remove: (client: ApiClient, id: string) => client.delete(`/api/v1/environment-variables/${byId(id)}`),
  setValues: (client: ApiClient, id: string, environmentId: string, request: SetEnvironmentVariableValues) =>
    client.put<EnvironmentVariable>(
      `/api/v1/environment-variables/${byId(id)}/values/${byId(environmentId)}`,
      request,
    ),
  removeValues: (client: ApiClient, id: string, environmentId: string) =>
    client.delete(`/api/v1/environment-variables/${byId(id)}/values/${byId(environmentId)}`),
};

export const policiesApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<Policy[]> =>
    await listAll<Policy>(client, '/api/v1/policies', { signal }),
  create: (client: ApiClient, request: CreatePolicy) => client.post<Policy>('/api/v1/policies', request),
  modify: (client: ApiClient, id: string, request: ModifyPolicy) =>
    client.patch<Policy>(`/api/v1/policies/${byId(id)}`, request),
  remove: (client: ApiClient, id: string) => client.delete(`/api/v1/policies/${byId(id)}`),
};

export const apiKeysApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<ApiKey[]> =>
    await listAll<ApiKey>(client, '/api/v1/api-keys', { signal }),
  create: (client: ApiClient, request: CreateApiKey) =>
    client.post<CreatedApiKey>('/api/v1/api-keys', request),
  remove: (client: ApiClient, id: string) => client.delete(`/api/v1/api-keys/${byId(id)}`),
};

export const instancesApi = {
  list: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<InstanceList>('/api/v1/instances', { signal }),
};

export const monitoringApi = {
  list: (client: ApiClient, query: MonitoringQuery, { signal }: Signal = {}) =>
    client.get<ListPage<MonitoringRecord>>('/api/v1/monitoring/requests', { query: { ...query }, signal }),
  summary: (
    client: ApiClient,
    filter: MonitoringFilter,
    interval: MonitoringSummaryInterval | 'auto',
    { signal }: Signal = {},
  ) =>
    client.get<MonitoringSummary>('/api/v1/monitoring/summary', { query: { ...filter, interval }, signal }),
  /** One record in full: with its captured exchange when its API captures them. */
  get: (client: ApiClient, id: number, { signal }: Signal = {}) =>
    client.get<MonitoringRecord>(`/api/v1/monitoring/requests/${id}`, { signal }),
  /** The APIs the filters offer (id, name, base path only). */
  apiChoices: async (client: ApiClient, { signal }: Signal = {}): Promise<MonitoredApiChoice[]> =>
    (await listAll<MonitoredApiChoice>(client, '/api/v1/apis', { signal })).map(({ id, name, basePath }) => ({
      id,
      name,
      basePath,
    })),
  /** Operation keys (`GET /orders/{id}`) of one API, for the operation filter. */
  operationKeysOf: async (client: ApiClient, apiId: string, { signal }: Signal = {}): Promise<string[]> =>
    (
      await client.get<Pick<ApiDefinition, 'operations'>>(`/api/v1/apis/${byId(apiId)}`, { signal })
    ).operations.map((operation) => operation.key),
};
