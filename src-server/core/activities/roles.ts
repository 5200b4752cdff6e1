import { BUILT_IN_ROLES } from '../contracts/constants.js';
import type { RoleName } from '../contracts/access-schemas.js';
import { ACTIVITIES, type ActivityName } from './activities.js';

export { BUILT_IN_ROLES };
export type { RoleName };

interface RoleDefinition {
  description: string;
  /** Activity patterns `{Controller}.{Action}` with `*` for either part. */
  allow: string[];
  deny: string[];
}

export const ROLE_DEFINITIONS: Record<RoleName, RoleDefinition> = {
  Operator: {
    description:
      'Everything, including tenant settings, Control Panel restarts and application registrations.',
    allow: ['*.*'],
    deny: [],
  },
  Administrator: {
    description:
      'Everything but tenant settings, backups, Control Panel restarts, application registrations and audit history removal.',
    allow: ['*.*'],
    deny: [
      'TenantSettings.Modify',
      'TenantSettings.Backup',
      'ControlPanel.*',
      'AppRegistrations.*',
      'AuditLog.RemoveHistory',
    ],
  },
  Auditor: {
    description: 'Read-only: the audit log and every other view (and their own saved audit filters).',
    allow: ['*.View', 'Session.Refresh', 'Session.CreateSignInLink', 'SavedAuditFilters.*'],
    deny: [],
  },
};

export function patternMatches(pattern: string, activity: string): boolean {
  const [pc = '', pa = ''] = pattern.split('.');
  const [ac = '', aa = ''] = activity.split('.');
  return (
    (pc === '*' || pc.toLowerCase() === ac.toLowerCase()) &&
    (pa === '*' || pa.toLowerCase() === aa.toLowerCase())
  );
}

export function isBuiltInRole(role: string): role is RoleName {
  return (BUILT_IN_ROLES as readonly string[]).includes(role);
}

/** Whether any of the roles grants the activity. Unknown role names grant nothing. */
export function rolesAllow(roles: readonly string[], activity: ActivityName): boolean {
  return roles.some((role) => {
    if (!isBuiltInRole(role)) return false;
    const definition = ROLE_DEFINITIONS[role];
    return (
      definition.allow.some((pattern) => patternMatches(pattern, activity)) &&
      !definition.deny.some((pattern) => patternMatches(pattern, activity))
    );
  });
}

/** The activities each role grants, for the activity-catalog endpoint and the docs. */
export function activitiesOfRole(role: RoleName): ActivityName[] {
  return ACTIVITIES.map((activity) => activity.name).filter((name) => rolesAllow([role], name));
}
