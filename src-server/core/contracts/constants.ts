/**
 * Values of the management API that the server's engines share (and the console checks its copies against, as
 * types). No zod here: the template engine and the gateway import this module.
 */

/** How responses, the audit trail, monitoring and logs show a secret value. */
export const SECRET_MASK = '********';

/** Characters in one URL section or header value template. */
export const MAX_TEMPLATE_LENGTH = 4096;
