/**
 * The configuration store's document. Collections hold plain JSON records; big documents (OpenAPI specs) live
 * in files beside the store and are referenced by name.
 */
export interface AppRegistrationRecord {
  id: string;
  clientId: string;
  name: string;
  roles: string[];
  /** `scrypt$<salt>$<hash>`, never the secret. */
  secretHash: string;
  createdAt: string;
  secretUpdatedAt: string;
}

export interface SignInTicketRecord {
  /** SHA-256 of the one-time ticket. */
  ticketHash: string;
  userName: string;
  roles: string[];
  expiresAt: string;
}

export interface TenantRecord {
  id: string;
  name: string;
  createdAt: string;
}

/* ---------------------------------------------------------------------------------------------------------
 * Passthrough APIs (issue: Passthrough APIs). Collections: environments, agentGroups, environmentVariables,
 * apis, passthroughs, policies, apiKeys. Ids are UUIDs except the seeded `development` and `default`.
 * ------------------------------------------------------------------------------------------------------- */

export interface EnvironmentRecord {
  id: string;
  name: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export type AgentPlatform = 'cross-platform' | 'legacy';

/** An agent group. Cross-platform groups run here as one gateway listener each; legacy groups run nothing. */
export interface AgentGroupRecord {
  id: string;
  name: string;
  environmentId: string;
  platform: AgentPlatform;
  /** Listener address of a cross-platform group (loopback by default). */
  host: string;
  /** 0 picks a free port at start. */
  port: number;
  createdAt: string;
  updatedAt: string;
}

export type EnvVarType = 'string' | 'number' | 'boolean' | 'secret';

/** A stored value: plain text, or for secrets an AES-256-GCM box (see store/secret-box.ts). */
export type StoredValue = { plain: string } | { sealed: string };

/**
 * An environment variable: a single value (`#env.<name>`) or a group of typed members (`#env.<name>.<member>`),
 * with a value per environment.
 */
export interface EnvironmentVariableRecord {
  id: string;
  name: string;
  description?: string;
  kind: 'value' | 'group';
  /** For `kind: 'value'`. */
  type?: EnvVarType;
  /** For `kind: 'group'`. */
  members?: { name: string; type: EnvVarType }[];
  /**
   * environmentId → value. For `kind: 'value'` the key `''` holds it; for groups, one key per member.
   * An absent environment or member means "no value there".
   */
  values: Record<string, Record<string, StoredValue>>;
  createdAt: string;
  updatedAt: string;
}

export type HttpMethodName = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';

/** One condition: the parameter is present and, when `value` is given, has exactly that value. */
export interface MatchCondition {
  name: string;
  value?: string;
}

/** What a request must carry besides its path and method to be this operation (core/paths/request-match.ts). */
export interface RequestMatch {
  query?: MatchCondition[];
  /** Header names are lower-case. */
  headers?: MatchCondition[];
}

export interface ApiOperationRecord {
  /** `${method} ${path}`, e.g. `GET /orders/{id}`: the operation's identity across re-imports. */
  key: string;
  method: HttpMethodName;
  /**
   * The document's path key under the base path: an OpenAPI path template, possibly followed by `?…` or `#…`
   * naming the query values or headers that tell operations on one URL apart (see core/paths/request-match.ts).
   */
  path: string;
  /** Set when the path key names such conditions. */
  requestMatch?: RequestMatch;
  operationId?: string;
  summary?: string;
  pathParameters: string[];
}

export type OpenApiSpecVersion = '3.2' | '3.1' | '3.0' | '2.0';

/** Where an API's document came from: `url` is re-imported from the same URL. */
export interface ApiSourceRecord {
  kind: 'upload' | 'file' | 'url';
  /** The file name (upload, file) or the URL (url), without credentials. */
  name?: string;
  url?: string;
}

/**
 * One import, re-import or restore of an API. Its operations, warnings and skipped operations are kept in
 * `detailsFile`, the passthrough configuration it had when the next revision replaced it in `passthroughFile`
 * (both in the documents folder, like the document itself: see control/apis/api-document-files.ts).
 */
export interface ApiRevisionRecord {
  revision: number;
  importedAt: string;
  source: ApiSourceRecord;
  documentFile: string;
  documentMediaType: string;
  /** SHA-256 of the document as stored, hex. */
  documentSha256: string;
  detailsFile?: string;
  /** Set once the revision was replaced while the API had a passthrough configuration. */
  passthroughFile?: string;
  version: string;
  specVersion: OpenApiSpecVersion;
  basePath: string;
  operationCount: number;
  warningCount: number;
  skippedCount: number;
  /** The revision this one restored. */
  restoredFrom?: number;
}

/** An API definition imported from an OpenAPI document (kept as a file in the documents folder). */
export interface ApiRecord {
  id: string;
  name: string;
  version: string;
  specVersion: OpenApiSpecVersion;
  description?: string;
  /** Normalised: leading `/`, no trailing `/`; `/` for the root. */
  basePath: string;
  serverUrl?: string;
  agentGroupIds: string[];
  /** File name inside the documents folder. */
  documentFile: string;
  /** Media type the document was sent with; absent in older records (then derived from the file's format). */
  documentMediaType?: string;
  operations: ApiOperationRecord[];
  revision: number;
  /** Where the current revision's document came from; absent in records of earlier versions. */
  source?: ApiSourceRecord;
  /** Oldest first, the current one last; absent in records of earlier versions (then only the current exists). */
  revisions?: ApiRevisionRecord[];
  importedAt: string;
  updatedAt: string;
}

export type HeaderAction = 'Add' | 'Overwrite' | 'Remove';

export interface HeaderEntry {
  action: HeaderAction;
  name: string;
  /** Template text; absent for `Remove`. */
  value?: string;
  sealedValue?: never;
}

/**
 * A stored header entry whose value holds a literal secret in a credential header (`Authorization: Bearer abc`):
 * the value is sealed like secret variables (see store/secret-box.ts and passthrough/sealed-headers.ts) and
 * unsealed only where it is used. Values made only of references stay readable in `HeaderEntry.value`.
 */
export interface SealedHeaderEntry {
  action: Exclude<HeaderAction, 'Remove'>;
  name: string;
  sealedValue: string;
}

export type StoredHeaderEntry = HeaderEntry | SealedHeaderEntry;

/**
 * The configuration of one item of the editor's left list (`All operations` or one operation). As stored, its
 * header entries may be sealed (`StoredPassthroughEntry`); everything that renders or compiles it sees them in
 * clear.
 */
export interface PassthroughEntry<Header = HeaderEntry> {
  target: { section1: string; section2: string; section3: string; section4?: string };
  cors: {
    enabled: boolean;
    /** Exact origins, `*`, or wildcard subdomains such as `https://*.example.com`. */
    allowedOrigins: string[];
    allowCredentials: boolean;
    maxAgeSeconds: number;
    /** Response headers a browser script may read besides the CORS-safelisted ones (`ETag`, `Location`, …). */
    exposeHeaders: string[];
  };
  headers: Header[];
  timeouts: { connectMs: number; responseMs: number };
  /** 413 beyond it. */
  maxRequestBodyBytes: number;
  tls: { verify: boolean; caCertificate?: string };
  /** Relays `Upgrade: websocket` requests to the target (policies and CORS checked on the handshake). */
  allowWebSocket: boolean;
}

export type StoredPassthroughEntry = PassthroughEntry<StoredHeaderEntry>;

export const PASSTHROUGH_DEFAULTS = {
  cors: {
    enabled: false,
    allowedOrigins: [] as string[],
    allowCredentials: false,
    maxAgeSeconds: 600,
    exposeHeaders: [] as string[],
  },
  timeouts: { connectMs: 5_000, responseMs: 30_000 },
  /** 100 MiB (a literal, so the console's copy is checked against it). */
  maxRequestBodyBytes: 104_857_600,
  tls: { verify: true },
  allowWebSocket: false,
} as const;

/** The Passthrough configuration of one API: `All operations` and/or per-operation entries. */
export interface PassthroughRecord {
  id: string;
  apiId: string;
  allOperations?: StoredPassthroughEntry;
  /** operation key (`GET /orders/{id}`) → entry; wins over `allOperations` for that method and path. */
  operations: Record<string, StoredPassthroughEntry>;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

export type PolicyMethod = HttpMethodName | 'ALL';

export type PolicyGrant =
  | { type: 'public' }
  | { type: 'apiKey'; headerName?: string; queryName?: string }
  | {
      type: 'jwt';
      /** Issuer URL; keys from its discovery document and JWKS. */
      issuer: string;
      audience: string;
      /** Every rule must hold: the claim (string or array) contains one of the values. */
      claims: { claim: string; values: string[] }[];
    };

/** An API policy: which endpoints of an agent group it grants, to whom, how often. */
export interface PolicyRecord {
  id: string;
  name: string;
  agentGroupId: string;
  /** `ALL` has the lowest precedence; the longest matching path prefix wins among same-method policies. */
  endpoints: { method: PolicyMethod; pathPrefix: string }[];
  grants: PolicyGrant[];
  throttle?: { limit: number; per: 'minute' | 'hour' | 'day' };
  createdAt: string;
  updatedAt: string;
}

/** An API key: shown once at creation, kept as an HMAC-SHA-256 digest (keys are random, 256-bit). */
export interface ApiKeyRecord {
  id: string;
  name: string;
  environmentId: string;
  /** The key's first characters, for recognising it in lists and monitoring. */
  prefix: string;
  digest: string;
  /** Policies whose `apiKey` grants accept this key; empty: any policy of its environment's agent groups. */
  policyIds: string[];
  createdAt: string;
  expiresAt?: string;
}

export interface ConfigData {
  schemaVersion: number;
  tenant: TenantRecord;
  appRegistrations: AppRegistrationRecord[];
  signInTickets: SignInTicketRecord[];
  environments: EnvironmentRecord[];
  agentGroups: AgentGroupRecord[];
  environmentVariables: EnvironmentVariableRecord[];
  apis: ApiRecord[];
  passthroughs: PassthroughRecord[];
  policies: PolicyRecord[];
  apiKeys: ApiKeyRecord[];
}
