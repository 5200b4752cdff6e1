/**
 * Values of the management API that the console needs at run time. The console never loads server code, so each
 * is written here and checked against the contract's type (src-server/core/contracts): a value added to, removed
 * from or changed in the server's schema breaks `npm run typecheck` until it is changed here too.
 */
import type { API_DOCUMENT_LIMIT } from '../../src-server/core/contracts/api-schemas.js';
import type {
  MAX_TEMPLATE_LENGTH as SERVER_MAX_TEMPLATE_LENGTH,
  SECRET_MASK as SERVER_SECRET_MASK,
} from '../../src-server/core/contracts/constants.js';
import type {
  ENTRY_BOUNDS as SERVER_ENTRY_BOUNDS,
  EntryDefaults,
  MAX_ALLOWED_ORIGINS as SERVER_MAX_ALLOWED_ORIGINS,
  MAX_EXPOSED_HEADERS as SERVER_MAX_EXPOSED_HEADERS,
  MAX_HEADER_ENTRIES as SERVER_MAX_HEADER_ENTRIES,
} from '../../src-server/core/contracts/passthrough-schemas.js';
import type {
  AuditLogFlagKey,
  EnvironmentVariableType,
  HeaderAction,
  MonitoringOutcome,
  PolicyMethod,
  RoleName,
  ThrottlePeriod,
  TryMethod,
} from '../../src-server/core/contracts/index.js';

/** Every member of a string union, in the table's order; the table must name each member exactly once. */
export function valuesOf<T extends string>(table: Record<T, true>): readonly T[] {
  return Object.keys(table) as T[];
}

export const MONITORING_OUTCOMES = valuesOf<MonitoringOutcome>({
  forwarded: true,
  unmatched: true,
  'method-not-allowed': true,
  preflight: true,
  unauthenticated: true,
  denied: true,
  throttled: true,
  'payload-too-large': true,
  refused: true,
  'configuration-error': true,
  'upstream-error': true,
  timeout: true,
  'client-aborted': true,
});

export const ENVIRONMENT_VARIABLE_TYPES = valuesOf<EnvironmentVariableType>({
  string: true,
  number: true,
  boolean: true,
  secret: true,
});

export const POLICY_METHODS = valuesOf<PolicyMethod>({
  ALL: true,
  GET: true,
  PUT: true,
  POST: true,
  DELETE: true,
  OPTIONS: true,
  HEAD: true,
  PATCH: true,
  TRACE: true,
});

export const THROTTLE_PERIODS = valuesOf<ThrottlePeriod>({ minute: true, hour: true, day: true });

export const HEADER_ACTIONS = valuesOf<HeaderAction>({ Add: true, Overwrite: true, Remove: true });

/** Methods "Try it" can send. */
export const TRY_METHODS = valuesOf<TryMethod>({
  GET: true,
  HEAD: true,
  POST: true,
  PUT: true,
  PATCH: true,
  DELETE: true,
  OPTIONS: true,
});

export const BUILT_IN_ROLES = valuesOf<RoleName>({ Operator: true, Administrator: true, Auditor: true });

/** How the API shows a secret value; sending it back for a secret keeps the stored value. */
export const SECRET_MASK: typeof SERVER_SECRET_MASK = '********';

export const AUDIT_LOG_FLAG_KEY: AuditLogFlagKey = 'Flags:EnableServiceApiAuditLogRoute';

/** The largest OpenAPI document the server accepts (25 MiB). */
export const API_DOCUMENT_LIMIT_BYTES: typeof API_DOCUMENT_LIMIT = 26_214_400;

/** The server's defaults of an entry's settings. */
export const ENTRY_DEFAULTS = {
  cors: {
    enabled: false,
    allowedOrigins: [] as string[],
    allowCredentials: false,
    maxAgeSeconds: 600,
    exposeHeaders: [] as string[],
  },
  timeouts: { connectMs: 5_000, responseMs: 30_000 },
  maxRequestBodyBytes: 104_857_600,
  tls: { verify: true },
  allowWebSocket: false,
} as const satisfies EntryDefaults;

/** The server's bounds of an entry's numbers. */
export const ENTRY_BOUNDS = {
  connectMs: { min: 100, max: 120_000 },
  responseMs: { min: 100, max: 900_000 },
  maxRequestBodyBytes: { min: 0, max: 2_147_483_648 },
  maxAgeSeconds: { min: 0, max: 86_400 },
} as const satisfies typeof SERVER_ENTRY_BOUNDS;

export const MAX_TEMPLATE_LENGTH: typeof SERVER_MAX_TEMPLATE_LENGTH = 4096;
export const MAX_HEADER_ENTRIES: typeof SERVER_MAX_HEADER_ENTRIES = 50;
export const MAX_ALLOWED_ORIGINS: typeof SERVER_MAX_ALLOWED_ORIGINS = 100;
export const MAX_EXPOSED_HEADERS: typeof SERVER_MAX_EXPOSED_HEADERS = 50;

/** Page sizes the audit log offers (the server allows up to 200). */
export const AUDIT_PAGE_SIZES = [30, 50, 100, 200] as const;
export const AUDIT_DEFAULT_PAGE_SIZE = 30;
/** Page sizes API Monitoring offers (the server allows up to 500). */
export const MONITORING_PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const MONITORING_DEFAULT_PAGE_SIZE = 50;
