import type { ApiClient, DownloadedFile } from './api-client.js';
import type {
  Activity,
  AppRegistration,
  AppRegistrationWithSecret,
  AuditExportFormat,
  AuditLogFilter,
  AuditLogPage,
  AuditLogQuery,
  ControlPanelStatus,
  CreateAppRegistration,
  CurrentIdentity,
  ListPage,
  RestartAccepted,
  SessionToken,
  SettingValue,
  TenantSetting,
} from './types.js';

/** Large enough for every list the console shows whole (settings, activities, registrations). */
const WHOLE_LIST = { PageSize: 500 };

type Signal = { signal?: AbortSignal };

export const sessionApi = {
  signIn: (client: ApiClient, ticket: string) =>
    client.post<SessionToken>('/api/v1/session/sign-in', { ticket }, { anonymous: true }),
  refresh: (client: ApiClient) => client.post<SessionToken>('/api/v1/session/refresh'),
  me: (client: ApiClient, { signal }: Signal = {}) => client.get<CurrentIdentity>('/api/v1/me', { signal }),
};

export const activitiesApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<Activity[]> =>
    (await client.get<ListPage<Activity>>('/api/v1/activities', { query: WHOLE_LIST, signal })).data,
};

export const auditLogApi = {
  list: (client: ApiClient, query: AuditLogQuery, { signal }: Signal = {}) =>
    client.get<AuditLogPage>('/api/v1/audit-log', { query: { ...query }, signal }),
  export: (client: ApiClient, format: AuditExportFormat, filter: AuditLogFilter): Promise<DownloadedFile> =>
    client.download('/api/v1/audit-log/export', `audit-log.${format}`, { query: { format, ...filter } }),
};

export const tenantApi = {
  settings: async (client: ApiClient, { signal }: Signal = {}): Promise<TenantSetting[]> =>
    (await client.get<ListPage<TenantSetting>>('/api/v1/tenant/settings', { query: WHOLE_LIST, signal }))
      .data,
  setSetting: (client: ApiClient, key: string, value: SettingValue) =>
    client.put<TenantSetting>(`/api/v1/tenant/settings/${encodeURIComponent(key)}`, { value }),
  controlPanel: (client: ApiClient, { signal }: Signal = {}) =>
    client.get<ControlPanelStatus>('/api/v1/tenant/control-panel', { signal }),
  restartControlPanel: (client: ApiClient) =>
    client.post<RestartAccepted>('/api/v1/tenant/control-panel/restart'),
};

export const appRegistrationsApi = {
  list: async (client: ApiClient, { signal }: Signal = {}): Promise<AppRegistration[]> =>
    (await client.get<ListPage<AppRegistration>>('/api/v1/app-registrations', { query: WHOLE_LIST, signal }))
      .data,
  create: (client: ApiClient, request: CreateAppRegistration) =>
    client.post<AppRegistrationWithSecret>('/api/v1/app-registrations', request),
  rotateSecret: (client: ApiClient, id: string) =>
    client.post<AppRegistrationWithSecret>(`/api/v1/app-registrations/${encodeURIComponent(id)}/secret`),
  remove: (client: ApiClient, id: string) =>
    client.delete(`/api/v1/app-registrations/${encodeURIComponent(id)}`),
};
