import type { AuditCategory } from '../contracts/audit-schemas.js';

export type { AuditCategory };

/**
 * The activity catalog: every `{Controller}.{Action}` Gatehouse knows. It drives role checks and is the list of
 * `actionName` values the audit trail records for Gatehouse's own actions.
 */
export interface Activity {
  name: string;
  description: string;
  /** Retention class of the audit entries this activity produces. */
  category: AuditCategory;
  /** Reads change nothing and are not audited. */
  readOnly: boolean;
}

const read = <N extends string>(name: N, description: string) => ({
  name,
  description,
  category: 'general' as AuditCategory,
  readOnly: true,
});
const change = <N extends string>(
  name: N,
  description: string,
  category: AuditCategory = 'configuration',
) => ({
  name,
  description,
  category,
  readOnly: false,
});

export const ACTIVITIES = [
  read('Activities.View', 'List the activity catalog and the roles'),
  read('Identity.Discovery', "Read the built-in identity provider's discovery document and signing keys"),
  read('Identity.Token', 'Obtain a token with the client-credentials grant'),
  read('AuditLog.View', 'Read the audit trail log'),
  change(
    'AuditLog.RemoveHistory',
    "Remove one resource's configuration history from the audit trail",
    'general',
  ),
  change('SavedAuditFilters.Create', 'Save the audit viewer’s current filter under a name', 'general'),
  change('SavedAuditFilters.Delete', 'Delete one of your saved audit filters', 'general'),
  read('AuditSources.View', 'List the tenants the audit trail is synced from (secrets masked)'),
  change('AuditSources.Create', 'Add a tenant to sync the audit trail from', 'general'),
  change('AuditSources.Modify', "Change a sync source's endpoint or credentials", 'general'),
  change('AuditSources.Delete', 'Remove a sync source (its synced trail stays)', 'general'),
  change('AuditSources.Sync', "Pull a tenant's new audit entries from its endpoint", 'general'),
  read('TenantSettings.View', 'Read tenant settings and their pending values'),
  change(
    'TenantSettings.Modify',
    'Change a tenant setting (takes effect when the Control Panel restarts)',
    'general',
  ),
  change('TenantSettings.Backup', 'Start a backup of the embedded database', 'general'),
  change('ControlPanel.Restart', 'Restart the Control Panel', 'general'),
  read('AppRegistrations.View', 'List application registrations of the built-in identity provider'),
  change('AppRegistrations.Create', 'Create an application registration'),
  change('AppRegistrations.Delete', 'Delete an application registration'),
  change('AppRegistrations.RotateSecret', "Rotate an application registration's client secret"),
  read('Session.View', "Read the caller's identity and permissions"),
  read('Session.Refresh', "Exchange a console session's valid token for a fresh one"),
  change('Session.SignIn', 'Exchange a one-time sign-in link for a console session', 'general'),
  change(
    'Session.CreateSignInLink',
    'Get a one-time console sign-in link for oneself (`gatehouse link`)',
    'general',
  ),
  read('Apis.View', 'List and read API definitions'),
  change('Apis.Import', 'Import or re-import an API definition from an OpenAPI document'),
  change('Apis.Modify', "Change an API's name, description, agent groups or monitoring capture"),
  change('Apis.Delete', 'Delete an API definition'),
  change(
    'Apis.Restore',
    'Restore an earlier revision of an API definition with its passthrough configuration',
  ),
  read('Passthroughs.View', 'Read Passthrough API configurations'),
  read('Passthroughs.Preview', 'Preview the target URL and headers of a passthrough configuration'),
  change(
    'Passthroughs.Try',
    "Send a request through an agent group's gateway from the Passthrough editor",
    'general',
  ),
  change('Passthroughs.Create', 'Create a Passthrough API configuration'),
  change('Passthroughs.Modify', 'Modify a Passthrough API configuration'),
  change('Passthroughs.Delete', 'Delete a Passthrough API configuration'),
  read('Environments.View', 'List environments'),
  change('Environments.Create', 'Create an environment'),
  change('Environments.Modify', 'Modify an environment'),
  change('Environments.Delete', 'Delete an environment'),
  read('AgentGroups.View', 'List agent groups'),
  change('AgentGroups.Create', 'Create an agent group'),
  change('AgentGroups.Modify', 'Modify an agent group'),
  change('AgentGroups.Delete', 'Delete an agent group'),
  read('EnvironmentVariables.View', 'List environment variables (secret values masked)'),
  change('EnvironmentVariables.Create', 'Create an environment variable'),
  change('EnvironmentVariables.Modify', 'Change an environment variable or its values'),
  change('EnvironmentVariables.Delete', 'Delete an environment variable'),
  read('Policies.View', 'List API policies'),
  change('Policies.Create', 'Create an API policy'),
  change('Policies.Modify', 'Modify an API policy'),
  change('Policies.Delete', 'Delete an API policy'),
  read('ApiKeys.View', 'List API keys (never their secret)'),
  change('ApiKeys.Create', 'Create an API key'),
  change('ApiKeys.Delete', 'Revoke an API key'),
  read('Monitoring.View', 'Read API monitoring records and summaries'),
  read('Instances.View', 'List the Gatehouse instances that share the database'),
  change('Agent.Started', 'An agent group listener started', 'agent'),
  change('Agent.Stopped', 'An agent group listener stopped', 'agent'),
  change('Agent.ConfigurationApplied', 'An agent group applied a new configuration', 'agent'),
] as const satisfies readonly Activity[];

export type ActivityName = (typeof ACTIVITIES)[number]['name'];

const BY_NAME = new Map<string, Activity>(ACTIVITIES.map((activity) => [activity.name, activity]));

export function getActivity(name: ActivityName): Activity {
  const activity = BY_NAME.get(name);
  if (!activity) throw new Error(`Unknown activity ${name}`);
  return activity;
}
