import type { Activity } from '../activities/activities.js';
import type { Principal } from '../http/principal.js';
import type { AuditAgentGroup, AuditResource } from './audit-entry.js';

/** What a handler adds to the audit entry of a modifying request. */
export interface AuditAnnotations {
  resources: AuditResource[];
  agentGroup?: AuditAgentGroup;
  /** Extra parameters (e.g. a server-generated id) merged into the recorded request parameters. */
  extraParameters?: Record<string, unknown>;
  /** Who acted, for anonymous routes whose credential names a user (the sign-in exchange). */
  userName?: string;
}

/** What the audit trail receives for a modifying management request. */
export interface RequestAuditRecord {
  activity: Activity;
  principal: Principal | undefined;
  parameters: Record<string, unknown>;
  statusCode: number;
  annotations: AuditAnnotations;
}
