/**
 * The management API's types as clients (the console) use them: responses as the server sends them (`z.output`),
 * requests as a client may send them (`z.input`: a field with a default may be left out). Types only; the
 * console imports them with `import type` and never loads server code at run time.
 */
export type { Activity, Role, RoleName } from './access-schemas.js';
export type {
  ApiDefinition,
  ApiImportResult,
  ApiOperation,
  ApiReimportResult,
  ApiSource,
  ApiSummary,
  ConflictingApi,
  DefinitionIssue,
  MatchCondition,
  ModifyApi,
  OpenApiVersion,
  SkippedOperation,
} from './api-schemas.js';
export type {
  ApiChangeSummary,
  ApiImportJob,
  ApiRestoreResult,
  ApiRevision,
  ApiRevisionDetails,
  ApiRevisionList,
  ApplyImport,
  ImportJobState,
  ImportPhase,
  PassthroughRestore,
  RestoreRevision,
  UrlImport,
  UrlImportAndApply,
} from './api-import-schemas.js';
export type { ApiKey, CreateApiKey, CreatedApiKey } from './api-key-schemas.js';
export type {
  AgentGroup,
  AgentGroupPlatform,
  CreateAgentGroup,
  ModifyAgentGroup,
} from './agent-group-schemas.js';
export type {
  AuditCategory,
  AuditEntry,
  AuditExportFormat,
  AuditLogFacets,
  AuditLogPage,
  AuditTenant,
  AuditTenantList,
  AuditResource,
} from './audit-schemas.js';
export type {
  AuditChainVerdictDto,
  AuditChainVerification,
  AuditVerificationRun,
} from './audit-chain-schemas.js';
export type { AuditEntryChanges, ParameterChange } from './audit-changes-schemas.js';
export type { AuditTimeline, AuditTimelineInterval, AuditTimelineSplit } from './audit-timeline-schemas.js';
export type { SavedFilter, SavedFilterInput, SavedFilterList } from './saved-filter-schemas.js';
export type { CreateEnvironment, Environment, ModifyEnvironment } from './environment-schemas.js';
export type {
  CreateEnvironmentVariable,
  EnvironmentVariable,
  EnvironmentVariableKind,
  EnvironmentVariableMember,
  EnvironmentVariableScalar,
  EnvironmentVariableType,
  EnvironmentVariableValues,
  ModifyEnvironmentVariable,
  SetEnvironmentVariableValues,
} from './environment-variable-schemas.js';
export type {
  AppRegistration,
  AppRegistrationWithSecret,
  CreateAppRegistration,
} from './identity-schemas.js';
export type {
  MonitoringOutcome,
  MonitoringRecord,
  MonitoringStatusCounts,
  MonitoringSummary,
  MonitoringSummaryBucket,
  SummaryInterval as MonitoringSummaryInterval,
} from './monitoring-schemas.js';
export type {
  CapturedBody,
  CapturedExchange,
  MonitoringCaptureSettings,
} from './monitoring-capture-schemas.js';
export type { Instance, InstanceList } from './instance-schemas.js';
export type { ListPage, Paging } from './paging-schemas.js';
export type {
  CreatedPassthrough,
  CreatePassthrough,
  HeaderAction,
  Passthrough,
  PassthroughConfiguration,
  PassthroughCors,
  PassthroughEntry,
  PassthroughEntryInput,
  PassthroughHeaderEntry,
  PassthroughTarget,
  ReplacePassthrough,
} from './passthrough-schemas.js';
export type {
  CreatePolicy,
  InlinePolicy,
  JwtClaimRule,
  ModifyPolicy,
  Policy,
  PolicyEndpoint,
  PolicyGrant,
  PolicyGrantType,
  PolicyMethod,
  PolicyThrottle,
  ThrottlePeriod,
} from './policy-schemas.js';
export type {
  PassthroughPreview,
  PassthroughPreviewRequestInput as PassthroughPreviewRequest,
  PreviewError,
  PreviewSample,
} from './preview-schemas.js';
export type { ProblemDetails } from './problem-schemas.js';
export type {
  AuditSource,
  AuditSourceInput,
  AuditSourcePatch,
  AuditSourceList,
  AuditSyncSummary,
} from './audit-source-schemas.js';
export type {
  AuditLogFilterParameters as AuditLogFilter,
  AuditLogListParameters as AuditLogQuery,
  MonitoringFilterParameters as MonitoringFilter,
  MonitoringListParameters as MonitoringQuery,
  MonitoringSummaryParameters,
} from './query-parameters.js';
export type {
  CurrentIdentity,
  ExternalSignInOptions,
  SessionToken,
  SignInLink,
  SignInOptions,
  SignInRequest,
} from './session-schemas.js';
export type {
  AuditLogFlagKey,
  Backup,
  BackupOverview,
  ControlPanelStatus,
  RestartAccepted,
  SettingSource,
  SettingValue,
  TenantSetting,
} from './tenant-settings-schemas.js';
export type { HeaderPair, TryItRequest, TryItResult, TryMethod } from './try-it-schemas.js';
