/**
 * Values of the management API that the server's engines share (and the console checks its copies against, as
 * types). No zod here: the template engine and the gateway import this module, and so does every start for the
 * settings' keys, the roles and monitoring's outcomes (each schema module built ~5-10 ms of zod at every start).
 */

/** The setting that mounts `GET /api/v1/audit-log` (at the Control Panel's next start). */
export const AUDIT_LOG_FLAG_KEY = 'Flags:EnableServiceApiAuditLogRoute';

/** How responses, the audit trail, monitoring and logs show a secret value. */
export const SECRET_MASK = '********';

/** Characters in one URL section or header value template. */
export const MAX_TEMPLATE_LENGTH = 4096;

/** Body bytes kept per direction when an API captures exchanges in monitoring, unless the API says otherwise. */
export const DEFAULT_CAPTURE_BODY_BYTES = 16_384;
/** The most body bytes per direction an API may capture (a record stays small enough to list and keep). */
export const MAX_CAPTURE_BODY_BYTES = 1_048_576;

/**
 * The header that makes one gateway request run an unsaved draft (the editor's Try it): its value is a one-use
 * random token the Control Panel registered with the gateway. The gateway removes it before anything else.
 */
export const TRY_DRAFT_HEADER = 'x-gatehouse-try-draft';

/** What happened to a request that reached a gateway listener. */
export const MONITORING_OUTCOMES = [
  'forwarded',
  'unmatched',
  'method-not-allowed',
  'preflight',
  'preflight-refused',
  'unauthenticated',
  'denied',
  'throttled',
  'payload-too-large',
  'refused',
  'configuration-error',
  'upstream-error',
  'timeout',
  'client-aborted',
] as const;

/** The built-in roles a token or an application registration can carry. */
export const BUILT_IN_ROLES = ['Operator', 'Administrator', 'Auditor'] as const;
