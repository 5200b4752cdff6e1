// The key from the zod-free constants: the settings' schemas are the tenant settings routes' (loaded at their
// first request), not every start's.
import { AUDIT_LOG_FLAG_KEY } from '../contracts/constants.js';
import type { SettingType, SettingValue } from '../contracts/tenant-settings-schemas.js';

export type { SettingType, SettingValue };

export interface SettingDefinition {
  /** ASP.NET-style key: sections separated by `:`. Matched case-insensitively. */
  key: string;
  type: SettingType;
  defaultValue: SettingValue;
  description: string;
  /** May be changed through the management API (Operator only). The rest are deployment settings. */
  tenantEditable: boolean;
  min?: number;
  max?: number;
  /** For strings: the only values accepted (matched case-insensitively, stored as listed). */
  choices?: readonly string[];
  /** The value may hold a credential: shown with its password masked (`postgres://user:********@host/db`). */
  secret?: boolean;
}

/**
 * Every setting Gatehouse reads. All of them are read when the Control Panel starts; a change is pending until
 * "restart the Control Panel" (or a process restart).
 */
export const SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  {
    key: AUDIT_LOG_FLAG_KEY,
    type: 'boolean',
    defaultValue: false,
    description: 'Exposes GET /api/v1/audit-log and its "AuditLog" section in Swagger UI. Off by default.',
    tenantEditable: true,
  },
  {
    key: 'ControlPanel:Host',
    type: 'string',
    defaultValue: '127.0.0.1',
    description:
      'Address the Control Panel (management API, Swagger UI, console) listens on. Loopback by default.',
    tenantEditable: false,
  },
  {
    key: 'ControlPanel:Port',
    type: 'integer',
    defaultValue: 4700,
    min: 0,
    max: 65535,
    description: 'Port of the Control Panel; 0 picks a free port.',
    tenantEditable: false,
  },
  {
    key: 'ControlPanel:AllowedHosts',
    type: 'string',
    defaultValue: '',
    description:
      'Extra host names accepted in the Host header (comma-separated), besides the bound address and localhost.',
    tenantEditable: false,
  },
  {
    key: 'Gateway:Host',
    type: 'string',
    defaultValue: '127.0.0.1',
    description: 'Address of the default agent group gateway listener.',
    tenantEditable: false,
  },
  {
    key: 'Gateway:Port',
    type: 'integer',
    defaultValue: 8080,
    min: 0,
    max: 65535,
    description: 'Port of the default agent group gateway listener; 0 picks a free port.',
    tenantEditable: false,
  },
  {
    key: 'Gateway:MaxConnections',
    type: 'integer',
    defaultValue: 10_000,
    min: 0,
    max: 1_000_000,
    description:
      'Connections each gateway listener keeps open at once; the ones beyond are closed as they arrive. 0: no limit.',
    tenantEditable: false,
  },
  {
    key: 'Gateway:RequestBodyTimeoutSeconds',
    type: 'integer',
    defaultValue: 60,
    min: 0,
    max: 3600,
    description:
      'The longest a client may pause while sending a request body through the gateway; it then gets 408. 0: no limit.',
    tenantEditable: false,
  },
  {
    key: 'Auth:Audience',
    type: 'string',
    defaultValue: 'api://gatehouse',
    description: 'Audience (aud) that management API tokens of the built-in identity provider must carry.',
    tenantEditable: false,
  },
  {
    key: 'Auth:TokenLifetimeMinutes',
    type: 'integer',
    defaultValue: 60,
    min: 1,
    max: 1440,
    description: 'Lifetime of tokens issued by the built-in identity provider.',
    tenantEditable: true,
  },
  {
    key: 'Auth:External:Authority',
    type: 'string',
    defaultValue: '',
    description:
      'Issuer URL of an external identity provider (its /.well-known/openid-configuration is read). Empty: built-in provider only.',
    tenantEditable: true,
  },
  {
    key: 'Auth:External:Audience',
    type: 'string',
    defaultValue: '',
    description: 'Audience that tokens of the external identity provider must carry.',
    tenantEditable: true,
  },
  {
    key: 'Auth:External:ConsoleClientId',
    type: 'string',
    defaultValue: '',
    description:
      "Client id of the console at the external identity provider (a public client: authorization code with PKCE, redirect URI the Control Panel's address with a trailing /). Empty: no sign-in button for it.",
    tenantEditable: true,
  },
  {
    key: 'Auth:External:ConsoleScope',
    type: 'string',
    defaultValue: 'openid profile',
    description: 'Scopes the console asks the external identity provider for when it signs in.',
    tenantEditable: true,
  },
  {
    key: 'Auth:External:KeyRefreshCooldownSeconds',
    type: 'integer',
    defaultValue: 30,
    min: 0,
    max: 3600,
    description:
      'Minimum time between two JWKS fetches of the external identity provider when a token names an unknown key.',
    tenantEditable: false,
  },
  {
    key: 'Audit:RetentionDays',
    type: 'integer',
    defaultValue: 60,
    min: 1,
    max: 3650,
    description: 'Age after which general audit entries (and those of deleted resources) are removed.',
    tenantEditable: false,
  },
  {
    key: 'Audit:AgentEventWindow',
    type: 'integer',
    defaultValue: 1000,
    min: 1,
    max: 1_000_000,
    description: 'Agent events kept per agent group (a rolling window).',
    tenantEditable: false,
  },
  {
    key: 'Audit:CheckpointIntervalSeconds',
    type: 'integer',
    defaultValue: 60,
    min: 1,
    max: 86_400,
    description:
      "How often each tenant's audit chain gets a signed checkpoint when it has grown (tamper evidence; docs/AUDIT-CHAIN.md).",
    tenantEditable: false,
  },
  {
    key: 'Monitoring:RetentionDays',
    type: 'integer',
    defaultValue: 60,
    min: 1,
    max: 3650,
    description: 'Age after which API Monitoring records are removed (checked at start and hourly).',
    tenantEditable: false,
  },
  {
    key: 'Monitoring:MetricsRequireAuth',
    type: 'boolean',
    defaultValue: false,
    description:
      'Require a bearer token granting Monitoring.View on GET /metrics. Off by default: Prometheus scrapers rarely carry tokens and the Control Panel listens on loopback.',
    tenantEditable: true,
  },
  {
    key: 'ConnectionStrings:Gatehouse',
    type: 'string',
    defaultValue: '',
    description:
      'PostgreSQL for a team: postgres://user:password@host:5432/database. Empty: the embedded SQLite file in the data dir. Every instance on one database shares configuration, documents, keys, the audit trail and API monitoring.',
    tenantEditable: false,
    secret: true,
  },
  {
    key: 'Secrets:KeyFile',
    type: 'string',
    defaultValue: '',
    description:
      'The key that seals secret values in the database (AES-256-GCM). Empty: keys/secrets.key in the data dir. Instances sharing a PostgreSQL database must be given the same key file.',
    tenantEditable: false,
  },
  {
    key: 'Instance:Id',
    type: 'string',
    defaultValue: '',
    description:
      "This instance's name in logs, health answers and the rate-limit store's client list. Empty: <host name>-<process id>.",
    tenantEditable: false,
  },
  {
    key: 'ConnectionStrings:Redis',
    type: 'string',
    defaultValue: '',
    description:
      'redis://[:password@]host[:port][/db] (or rediss:// for TLS): API-policy throttling counts there, shared by every process and instance using it. Empty: counted in process.',
    tenantEditable: false,
    secret: true,
  },
  {
    key: 'RateLimiting:FailureMode',
    type: 'string',
    defaultValue: 'open',
    choices: ['open', 'closed'],
    description:
      'When the shared rate-limit store cannot answer: open counts in this process only until it is back (the limit then holds per process); closed refuses throttled requests with 503.',
    tenantEditable: false,
  },
  {
    key: 'RateLimiting:TimeoutMs',
    type: 'integer',
    defaultValue: 100,
    min: 5,
    max: 5000,
    description:
      'Longest wait for the shared rate-limit store on one request; past it the failure mode decides and the store is retried after a second.',
    tenantEditable: false,
  },
  {
    key: 'Shutdown:ReadinessGraceSeconds',
    type: 'integer',
    defaultValue: 5,
    min: 0,
    max: 3600,
    description:
      'On SIGTERM, how long every listener keeps accepting while /readyz answers 503, so a load balancer takes the instance out of its pool before the listeners close (longer than its probe interval times its failure threshold). Ctrl+C skips it; 0: none.',
    tenantEditable: false,
  },
  {
    key: 'Shutdown:DrainSeconds',
    type: 'integer',
    defaultValue: 10,
    min: 0,
    max: 3600,
    description:
      'On SIGTERM or Ctrl+C, how long listeners that stopped accepting let requests in flight finish before their connections are closed.',
    tenantEditable: false,
  },
  {
    key: 'Backup:Directory',
    type: 'string',
    defaultValue: '',
    description:
      'Where backups of the embedded database go (daily: a full one each week, differentials against it in between, each kept a month). Empty: backups/ in the data dir. Put it on another disk to survive the loss of this one. Not used with PostgreSQL.',
    tenantEditable: false,
  },
  {
    key: 'Logging:Level',
    type: 'string',
    defaultValue: 'info',
    description: 'Log level: fatal, error, warn, info, debug, trace or silent.',
    tenantEditable: false,
  },
];

const BY_LOWER_KEY = new Map(
  SETTING_DEFINITIONS.map((definition) => [definition.key.toLowerCase(), definition]),
);

/** A setting's value as shown (API, CLI): a URL's password masked for secret settings. */
export function displaySettingValue(definition: SettingDefinition, value: SettingValue): SettingValue {
  if (!definition.secret || typeof value !== 'string' || value === '') return value;
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1********@');
}

export function findSettingDefinition(key: string): SettingDefinition | undefined {
  return BY_LOWER_KEY.get(key.replace(/__/g, ':').toLowerCase());
}

/** Parses a textual value (env var, CLI, API) for a setting; returns an error message when it does not fit. */
export function coerceSettingValue(
  definition: SettingDefinition,
  raw: unknown,
): { ok: true; value: SettingValue } | { ok: false; message: string } {
  switch (definition.type) {
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const text = String(raw).trim().toLowerCase();
      if (text === 'true' || text === '1') return { ok: true, value: true };
      if (text === 'false' || text === '0') return { ok: true, value: false };
      return { ok: false, message: `${definition.key} must be true or false.` };
    }
    case 'integer': {
      const text = String(raw).trim();
      if (!/^[+-]?\d{1,10}$/.test(text))
        return { ok: false, message: `${definition.key} must be an integer.` };
      const value = Number(text);
      if (
        (definition.min !== undefined && value < definition.min) ||
        (definition.max !== undefined && value > definition.max)
      ) {
        return {
          ok: false,
          message: `${definition.key} must be from ${definition.min} to ${definition.max}.`,
        };
      }
      return { ok: true, value };
    }
    case 'string': {
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
        return { ok: false, message: `${definition.key} must be a string.` };
      }
      const text = String(raw);
      if (!definition.choices) return { ok: true, value: text };
      const choice = definition.choices.find((candidate) => candidate === text.trim().toLowerCase());
      if (choice === undefined)
        return { ok: false, message: `${definition.key} must be one of ${definition.choices.join(', ')}.` };
      return { ok: true, value: choice };
    }
  }
}
