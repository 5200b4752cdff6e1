/**
 * Every error code Gatehouse gives, in one place: problem+json answers carry it as the extension member `code`,
 * and every `GatehouseError` has one. Codes are stable: clients and the console match on them, never on wording.
 * docs/ERROR-CODES.md lists the same table (a unit test holds the two together).
 */

/** Who answers with the code: the Control Panel, a gateway listener, the CLI, or code inside the server. */
export type ErrorSource = 'control' | 'gateway' | 'cli' | 'internal';

export interface ErrorCodeEntry {
  /** The HTTP status of every problem with this code; absent for errors that never reach a client. */
  readonly status?: number;
  readonly sources: readonly ErrorSource[];
  readonly meaning: string;
}

const CONTROL = ['control'] as const;
const GATEWAY = ['gateway'] as const;
const BOTH = ['control', 'gateway'] as const;
const INTERNAL = ['internal'] as const;

export const ERROR_CODES = {
  // 400
  GH_ERR_VALIDATION: {
    status: 400,
    sources: CONTROL,
    meaning: 'Parameters or body are not valid; `errors` maps each parameter to its messages.',
  },
  GH_ERR_INVALID_JSON: { status: 400, sources: CONTROL, meaning: 'The request body is not valid JSON.' },
  GH_ERR_BODY_REQUIRED: {
    status: 400,
    sources: CONTROL,
    meaning: 'The route needs a request body and got none, or an empty one.',
  },
  GH_ERR_UNREADABLE_BODY: {
    status: 400,
    sources: BOTH,
    meaning:
      'The request body could not be read to its end (aborted, or not the size `Content-Length` says).',
  },
  GH_ERR_INVALID_DOCUMENT: {
    status: 400,
    sources: CONTROL,
    meaning:
      'Nothing usable can be taken from the API document: not JSON or YAML, not OpenAPI 3.2, 3.1, 3.0 or Swagger 2.0, or no operation; `errors` maps JSON pointers to messages.',
  },
  GH_ERR_CONTINUATION_TOKEN_INVALID: {
    status: 400,
    sources: CONTROL,
    meaning:
      'The `continuationToken` is not one Gatehouse issued: malformed, altered, or signed with a key this database does not hold. Start the walk again without it.',
  },
  GH_ERR_CONTINUATION_TOKEN_EXPIRED: {
    status: 400,
    sources: CONTROL,
    meaning:
      'The `continuationToken` is older than its lifetime (24 hours). Start the walk again without it.',
  },
  GH_ERR_CONTINUATION_TOKEN_MISMATCH: {
    status: 400,
    sources: CONTROL,
    meaning:
      'The `continuationToken` was issued for other filters or another `PageSize`, or came with a `PageNumber`: repeat the filters of the page that gave it, without `PageNumber`.',
  },
  GH_ERR_BAD_HOST: {
    status: 400,
    sources: GATEWAY,
    meaning: 'The request has no `Host` header (HTTP/1.1), more than one, or one that is not a host name.',
  },
  GH_ERR_BAD_REQUEST_TARGET: {
    status: 400,
    sources: GATEWAY,
    meaning:
      'The request path is refused: dot segments, backslashes, `%2F`, `%5C`, `%00` or a malformed target.',
  },
  GH_ERR_MALFORMED_REQUEST: { status: 400, sources: BOTH, meaning: 'The request is not valid HTTP.' },
  GH_ERR_UNFORWARDABLE_REQUEST: {
    status: 400,
    sources: GATEWAY,
    meaning:
      'Request data cannot be forwarded under the passthrough configuration: a value would change the target, or a value placed in a path section holds `/`, `\\` or a dot segment once decoded.',
  },
  GH_ERR_WEBSOCKET_NOT_ALLOWED: {
    status: 400,
    sources: GATEWAY,
    meaning:
      'A WebSocket handshake (`Upgrade: websocket`) reached an endpoint whose passthrough entry does not relay WebSocket (`allowWebSocket`).',
  },
  GH_ERR_BAD_WEBSOCKET_HANDSHAKE: {
    status: 400,
    sources: GATEWAY,
    meaning: 'A WebSocket handshake must be a GET request.',
  },
  GH_ERR_UPGRADE_WITH_BODY: {
    status: 400,
    sources: GATEWAY,
    meaning: 'A request asking to switch to a protocol other than WebSocket (`Upgrade`) carries a body.',
  },
  // 401
  GH_ERR_UNAUTHENTICATED: {
    status: 401,
    sources: BOTH,
    meaning:
      'No credentials: no bearer token (`WWW-Authenticate: Bearer`, no `error`), or no API key or token a policy of the endpoint accepts.',
  },
  GH_ERR_INVALID_TOKEN: {
    status: 401,
    sources: CONTROL,
    meaning:
      'The bearer token is malformed, expired, not yet valid, wrongly signed, or for another issuer or audience (`error="invalid_token"`).',
  },
  GH_ERR_SIGN_IN_LINK_INVALID: {
    status: 401,
    sources: CONTROL,
    meaning: 'The console sign-in link is unknown, already used or expired.',
  },
  GH_ERR_INVALID_CREDENTIALS: {
    status: 401,
    sources: GATEWAY,
    meaning: 'The API key is unknown, or the token is not valid for the endpoint.',
  },
  GH_ERR_API_KEY_EXPIRED: { status: 401, sources: GATEWAY, meaning: 'The API key has expired.' },
  GH_ERR_NO_POLICY: {
    status: 401,
    sources: GATEWAY,
    meaning: 'No API policy of the agent group covers the endpoint: there is no implicit public access.',
  },
  // 403
  GH_ERR_FORBIDDEN: {
    status: 403,
    sources: BOTH,
    meaning:
      "The caller is known but not allowed: its roles lack the route's activity, or no API policy grants it the endpoint.",
  },
  GH_ERR_ORIGIN_NOT_ALLOWED: {
    status: 403,
    sources: GATEWAY,
    meaning:
      "A WebSocket handshake comes from an `Origin` the endpoint's CORS settings do not allow (browsers send no preflight for it).",
  },
  // 404, 405
  GH_ERR_NOT_FOUND: {
    status: 404,
    sources: CONTROL,
    meaning: 'No resource has that id (or it has no such part), or no route matches the path.',
  },
  GH_ERR_NO_ENDPOINT: {
    status: 404,
    sources: GATEWAY,
    meaning: 'No passthrough endpoint of the agent group matches the request.',
  },
  GH_ERR_METHOD_NOT_ALLOWED: {
    status: 405,
    sources: BOTH,
    meaning: 'The path does not serve the method; `Allow` lists those it serves.',
  },
  // 408
  GH_ERR_REQUEST_TIMEOUT: {
    status: 408,
    sources: BOTH,
    meaning:
      'The request headers did not arrive in time (30 seconds on the gateway, 60 on the Control Panel).',
  },
  GH_ERR_REQUEST_BODY_TIMEOUT: {
    status: 408,
    sources: GATEWAY,
    meaning:
      'The request body paused longer than the listener allows (`Gateway:RequestBodyTimeoutSeconds`, 60 by default).',
  },
  // 409
  GH_ERR_ALREADY_EXISTS: {
    status: 409,
    sources: CONTROL,
    meaning:
      "A resource of that name already exists (`conflictingId`); `errors.name` says so in words for the form's name field.",
  },
  GH_ERR_PASSTHROUGH_EXISTS: {
    status: 409,
    sources: CONTROL,
    meaning: 'The API already has a Passthrough configuration (`passthroughId`): change it with PUT.',
  },
  GH_ERR_IN_USE: {
    status: 409,
    sources: CONTROL,
    meaning:
      'Other resources depend on the one changed or deleted; `apis`, `policies`, `apiKeys`, `agentGroups`, `passthroughs` or `missingValues` list them.',
  },
  GH_ERR_DEFAULT_AGENT_GROUP: {
    status: 409,
    sources: CONTROL,
    meaning: 'The default agent group cannot be deleted.',
  },
  GH_ERR_REVISION_MISMATCH: {
    status: 409,
    sources: CONTROL,
    meaning:
      'The Passthrough configuration was changed since the given revision; `revision` is the current one.',
  },
  GH_ERR_API_CHANGED: {
    status: 409,
    sources: CONTROL,
    meaning:
      'The API was re-imported or restored since its changes were looked at (`expectedRevision`); `currentRevision` is its revision now.',
  },
  GH_ERR_REVISION_NOT_RESTORABLE: {
    status: 409,
    sources: CONTROL,
    meaning:
      'The revision cannot be restored: it is the current one, or an earlier version of Gatehouse imported it (without its details).',
  },
  GH_ERR_IMPORT_NOT_READY: {
    status: 409,
    sources: CONTROL,
    meaning:
      'The import is still running, failed or was cancelled (`state`): only a read one can be applied.',
  },
  GH_ERR_BASE_PATH_OVERLAP: {
    status: 409,
    sources: CONTROL,
    meaning:
      'The base path overlaps that of another API of the agent group (`conflictingApi`, `agentGroupId`).',
  },
  GH_ERR_RESERVED_PATH: {
    status: 409,
    sources: CONTROL,
    meaning:
      'The base path (or, for an API at `/`, an operation path) starts with `/healthz` or `/readyz`, which every listener answers itself (`reservedPath`).',
  },
  GH_ERR_POLICY_OVERLAP: {
    status: 409,
    sources: CONTROL,
    meaning: 'Another policy of the agent group already covers the endpoint (`conflictingId`).',
  },
  GH_ERR_PORT_IN_USE: {
    status: 409,
    sources: CONTROL,
    meaning:
      'Another agent group, or the Control Panel, listens on that host and port; `errors.port` says which.',
  },
  GH_ERR_NOT_DEPLOYED: {
    status: 409,
    sources: CONTROL,
    meaning: 'Try it: the API has no saved Passthrough configuration, or no agent group.',
  },
  GH_ERR_LISTENER_NOT_RUNNING: {
    status: 409,
    sources: CONTROL,
    meaning: "Try it: the gateway listener of the API's agent group is not running.",
  },
  GH_ERR_TRY_DRAFT_UNAVAILABLE: {
    status: 409,
    sources: CONTROL,
    meaning:
      'Try it: unsaved changes cannot be tried while the gateway runs in worker processes (`serve --workers`); save them, then try.',
  },
  // 413, 415, 417, 421
  GH_ERR_PAYLOAD_TOO_LARGE: {
    status: 413,
    sources: BOTH,
    meaning: 'The request body is larger than the limit of the route or passthrough entry.',
  },
  GH_ERR_DOCUMENT_TOO_LARGE: {
    status: 413,
    sources: ['control', 'cli'],
    meaning:
      'A description loaded from a URL or file, or a file its `$ref`s name, is larger than 25 MiB (or decompresses to more).',
  },
  GH_ERR_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    sources: CONTROL,
    meaning: 'The request body has a media type, encoding or charset the route does not take.',
  },
  GH_ERR_EXPECTATION_FAILED: {
    status: 417,
    sources: GATEWAY,
    meaning: 'The `Expect` header of an HTTP/1.1 request asks for something other than `100-continue`.',
  },
  GH_ERR_HOST_NOT_ALLOWED: {
    status: 421,
    sources: CONTROL,
    meaning: 'The `Host` header names a host the Control Panel does not serve (`ControlPanel:AllowedHosts`).',
  },
  // 422
  GH_ERR_MISSING_VARIABLE_VALUES: {
    status: 422,
    sources: CONTROL,
    meaning:
      "Not deployed: referenced environment variables have no value in an agent group's environment (`missingValues`).",
  },
  GH_ERR_LEGACY_AGENT_GROUP: {
    status: 422,
    sources: CONTROL,
    meaning:
      'Passthrough runs on cross-platform agents only: the API is on a legacy agent group (`legacyAgentGroups`).',
  },
  GH_ERR_NOT_IN_AGENT_GROUP: {
    status: 422,
    sources: CONTROL,
    meaning: 'Try it: the API is not assigned to the agent group asked for.',
  },
  GH_ERR_SESSION_NOT_REFRESHABLE: {
    status: 422,
    sources: CONTROL,
    meaning: 'Only console sessions of the built-in identity provider can be refreshed.',
  },
  GH_ERR_SIGN_IN_LINK_NOT_ALLOWED: {
    status: 422,
    sources: CONTROL,
    meaning:
      'Only user tokens of the built-in identity provider (`gatehouse token`, a console session) can ask for a sign-in link.',
  },
  GH_ERR_DEPLOYMENT_SETTING: {
    status: 422,
    sources: CONTROL,
    meaning:
      'A deployment setting is changed in appsettings.json, an environment variable or an option, not here.',
  },
  GH_ERR_BACKUP_UNSUPPORTED: {
    status: 422,
    sources: ['control', 'cli'],
    meaning:
      "Gatehouse backs up its embedded database only: on PostgreSQL, use the server's own tools (README: backups).",
  },
  GH_ERR_VARIABLE_TYPE_CHANGE: {
    status: 422,
    sources: CONTROL,
    meaning:
      'The variable cannot change type: it is a secret with values, or a value is not of the new type.',
  },
  GH_ERR_PRIVATE_ADDRESS: {
    status: 422,
    sources: ['control', 'cli'],
    meaning:
      'The URL of a description resolves to a loopback or private address (`host`, `address`, `url`): send `allowPrivateAddress` (CLI: `--allow-private-address`) to confirm.',
  },
  GH_ERR_DOCUMENT_UNAVAILABLE: {
    status: 422,
    sources: ['control', 'cli'],
    meaning:
      'A description (or a file its `$ref`s name) could not be loaded; `reason` says why: `unreachable`, `timeout`, `http-status` or `too-many-redirects` (`url`).',
  },
  // 429, 431
  GH_ERR_TOO_MANY_IMPORTS: {
    status: 429,
    sources: CONTROL,
    meaning: 'Four imports are in progress or waiting to be applied already: finish or cancel one first.',
  },
  GH_ERR_THROTTLED: {
    status: 429,
    sources: GATEWAY,
    meaning: "The policy's throttle limit is reached; `Retry-After` says when to try again.",
  },
  GH_ERR_HEADERS_TOO_LARGE: { status: 431, sources: BOTH, meaning: 'The request headers are too large.' },
  // 5xx
  GH_ERR_INTERNAL: {
    status: 500,
    sources: BOTH,
    meaning: 'An unexpected error; the `traceId` finds it in the server log.',
  },
  GH_ERR_CONNECT_NOT_SUPPORTED: {
    status: 501,
    sources: BOTH,
    meaning: 'A `CONNECT` request: Gatehouse is not a forward proxy and opens no tunnels.',
  },
  GH_ERR_GATEWAY_UNREACHABLE: {
    status: 502,
    sources: CONTROL,
    meaning: 'Try it: the gateway listener of the agent group could not be reached.',
  },
  GH_ERR_UPSTREAM_UNREACHABLE: {
    status: 502,
    sources: GATEWAY,
    meaning: 'The target could not be reached (DNS lookup failed, connection refused, host unreachable).',
  },
  GH_ERR_UPSTREAM_CLOSED: {
    status: 502,
    sources: GATEWAY,
    meaning: 'The target closed the connection before its response was complete.',
  },
  GH_ERR_UPSTREAM_INVALID_RESPONSE: {
    status: 502,
    sources: GATEWAY,
    meaning: 'The target sent a response that is not valid HTTP.',
  },
  GH_ERR_UPSTREAM_TLS: { status: 502, sources: GATEWAY, meaning: 'The TLS connection to the target failed.' },
  GH_ERR_TRY_IT_BUSY: {
    status: 503,
    sources: CONTROL,
    meaning: 'Try it: too many requests are being tried at once.',
  },
  GH_ERR_MONITORING_UNAVAILABLE: {
    status: 503,
    sources: ['control', 'internal'],
    meaning:
      'The API monitoring store is not available (closing, or it failed to open: the server log says why).',
  },
  GH_ERR_STORAGE_UNAVAILABLE: {
    status: 503,
    sources: ['control', 'internal'],
    meaning:
      'The database cannot be written or read right now (PostgreSQL unreachable, disk full); nothing was stored, a retry may succeed.',
  },
  GH_ERR_DATABASE_DAMAGED: {
    status: 503,
    sources: ['control', 'internal'],
    meaning:
      'The SQLite database file is damaged; the message names it and the way out (restore from the latest backup).',
  },
  GH_ERR_PASSTHROUGH_MISCONFIGURED: {
    status: 503,
    sources: GATEWAY,
    meaning:
      'The passthrough configuration of the endpoint cannot be applied (e.g. a referenced variable has no value).',
  },
  GH_ERR_ISSUER_UNAVAILABLE: {
    status: 503,
    sources: GATEWAY,
    meaning: "The token issuer's signing keys could not be retrieved.",
  },
  GH_ERR_RATE_LIMIT_UNAVAILABLE: {
    status: 503,
    sources: GATEWAY,
    meaning:
      'The shared rate-limit store (Redis) cannot count the request and `RateLimiting:FailureMode` is `closed`; `Retry-After` is 1.',
  },
  GH_ERR_NOT_READY: {
    status: 503,
    sources: BOTH,
    meaning:
      '`/readyz`: the listener should not get traffic now (storage unreachable, runtime not loaded, or draining); `checks` says which.',
  },
  GH_ERR_TRY_IT_TIMEOUT: {
    status: 504,
    sources: CONTROL,
    meaning:
      'Try it: the gateway did not answer within the time limit; `targetUrl` is where it was forwarding.',
  },
  GH_ERR_UPSTREAM_TIMEOUT: {
    status: 504,
    sources: GATEWAY,
    meaning: 'The target did not accept the connection, or did not respond, in time.',
  },
  // Without an HTTP status
  GH_ERR_USAGE: {
    sources: ['cli'],
    meaning: 'A command was called wrongly (unknown option, missing argument); exit code 2.',
  },
  GH_ERR_COMMAND_FAILED: {
    sources: ['cli'],
    meaning: 'A command failed for a reason the user can act on (file unreadable, bad input); exit code 1.',
  },
  GH_ERR_ADDRESS_IN_USE: {
    sources: ['cli', 'internal'],
    meaning:
      'A listener cannot start: another process uses its host and port. The message names the option to change.',
  },
  GH_ERR_DATA_DIR_LOCKED: {
    sources: ['cli', 'internal'],
    meaning: 'Another Gatehouse process uses the data directory; the message names it.',
  },
  GH_ERR_INVALID_SETTINGS: {
    sources: ['cli', 'internal'],
    meaning:
      'A settings layer (appsettings.json, environment, command line) holds a value that is not valid.',
  },
  GH_ERR_PRIMARY_UNREACHABLE: {
    sources: INTERNAL,
    meaning:
      "A gateway worker's channel to its primary process (`serve --workers`) is closed or did not answer in time.",
  },
  GH_ERR_WORKER_START_FAILED: {
    sources: ['cli', 'internal'],
    meaning: 'A gateway worker of `serve --workers` could not start; the message says why.',
  },
  GH_ERR_DATABASE_OPEN_FAILED: {
    sources: ['cli', 'internal'],
    meaning:
      'The database cannot be opened: PostgreSQL unreachable or refusing the credentials, a file that is damaged or not a database, or a schema newer than this version.',
  },
  GH_ERR_NEWER_CONFIGURATION: {
    sources: ['cli', 'internal'],
    meaning: 'The stored configuration has a schema version newer than this Gatehouse understands.',
  },
  GH_ERR_CONVERSION_FAILED: {
    sources: ['cli', 'internal'],
    meaning:
      'A data dir of an earlier release could not be converted into the database (the old files are kept, nothing is changed).',
  },
  GH_ERR_SECRETS_KEY_MISMATCH: {
    sources: ['cli', 'internal'],
    meaning:
      "The secrets key file does not open the keys sealed in the database (another data dir's key file, or `Secrets:KeyFile` pointing elsewhere).",
  },
  GH_ERR_RESTORE_REFUSED: {
    sources: ['cli'],
    meaning:
      'A restore cannot run: the moment is outside the restorable window, the target folder already holds a database, or a backup it needs is missing.',
  },
  GH_ERR_DOCUMENT_MISSING: {
    sources: INTERNAL,
    meaning: 'A stored API document that the configuration names is not in the database.',
  },
  GH_ERR_AUDIT_SYNC_FAILED: {
    sources: INTERNAL,
    meaning:
      "A sync of an audit source stopped: the tenant or its identity provider refused, answered something that is not a page, or kept failing past the retries. The source's `lastSync.error` says which; the next sync resumes.",
  },
  GH_ERR_AUDIT_CHAIN_BROKEN: {
    sources: INTERNAL,
    meaning:
      '`gatehouse audit verify` found a broken link in an audit chain: an entry was edited, removed without a signed removal record, inserted or reordered (docs/AUDIT-CHAIN.md). Exit code 3.',
  },
  GH_ERR_STORE_CLOSED: {
    sources: INTERNAL,
    meaning: 'The audit or monitoring store was used after it was closed (while the server stops).',
  },
  GH_ERR_INVALID_AUDIT_ENTRY: {
    sources: INTERNAL,
    meaning: 'An audit entry to record lacks a field or has one of the wrong type.',
  },
  GH_ERR_MONITORING_RECORD_INVALID: {
    sources: INTERNAL,
    meaning:
      "A monitoring record in an earlier release's data dir is truncated or corrupt; the conversion reports it and goes on.",
  },
  GH_ERR_TEMPLATE_SYNTAX: {
    sources: INTERNAL,
    meaning: 'A template expression does not parse (reported as a position and message in the editor).',
  },
  GH_ERR_TEMPLATE_BIND: {
    sources: INTERNAL,
    meaning: 'A template expression names something unknown or mixes types (reported in the editor).',
  },
  GH_ERR_TEMPLATE_RENDER: {
    sources: INTERNAL,
    meaning: 'A template failed while a request was forwarded (it becomes a 400 or 503 refusal).',
  },
} as const satisfies Record<`GH_ERR_${string}`, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes of problems with that status, e.g. `ErrorCodeWithStatus<409>`. */
export type ErrorCodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { status: S } ? C : never;
}[ErrorCode];

/** The codes that answer HTTP requests: a problem's code decides its status. */
export type HttpErrorCode = ErrorCodeWithStatus<number>;

/** `ErrorCode.GH_ERR_NOT_FOUND === 'GH_ERR_NOT_FOUND'`: throw sites name codes through this, never as text. */
export const ErrorCode = Object.freeze(
  Object.fromEntries(Object.keys(ERROR_CODES).map((code) => [code, code])),
) as { readonly [C in ErrorCode]: C };

export function statusOf(code: HttpErrorCode): number {
  return ERROR_CODES[code].status;
}
