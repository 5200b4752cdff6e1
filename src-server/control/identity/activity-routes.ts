import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { ActivitySchema, RoleSchema } from '../../core/contracts/access-schemas.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { ACTIVITIES } from '../../core/activities/activities.js';
import { BUILT_IN_ROLES, ROLE_DEFINITIONS, activitiesOfRole } from '../../core/activities/roles.js';

const TAG = 'Access';

export function activityRoutes(): AnyRoute[] {
  // Each role's activities once: asked again per activity, they were ~190 ms of a cold start's CPU.
  const granted = new Map(BUILT_IN_ROLES.map((role) => [role, activitiesOfRole(role)]));
  const grantedSets = new Map([...granted].map(([role, names]) => [role, new Set(names)]));
  const activities = ACTIVITIES.map((activity) => ({
    ...activity,
    roles: BUILT_IN_ROLES.filter((role) => grantedSets.get(role)!.has(activity.name)),
  }));
  const roles = BUILT_IN_ROLES.map((role) => ({
    name: role,
    ...ROLE_DEFINITIONS[role],
    activities: granted.get(role)!,
  }));
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/activities',
      activity: 'Activities.View',
      tag: TAG,
      operationId: 'listActivities',
      summary: 'The activity catalog (the actionName values Gatehouse records)',
      query: LIST_PAGING_QUERY,
      responses: [{ status: 200, description: 'Activities.', schema: listPageSchema(ActivitySchema) }],
      handler({ query }) {
        return { body: paginate(activities, query.PageNumber, query.PageSize) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/roles',
      activity: 'Activities.View',
      tag: TAG,
      operationId: 'listRoles',
      summary: 'Built-in roles and the activities each grants',
      query: LIST_PAGING_QUERY,
      responses: [{ status: 200, description: 'Roles.', schema: listPageSchema(RoleSchema) }],
      handler({ query }) {
        return { body: paginate(roles, query.PageNumber, query.PageSize) };
      },
    }),
  ];
}
