import { InstanceListSchema } from '../../core/contracts/instance-schemas.js';
import type { InstanceRegistry } from '../../core/instance/instance-registry.js';
import { defineRoute, type AnyRoute } from '../http/route.js';

/** `GET /api/v1/instances`: the Gatehouse instances sharing this database (one, on SQLite). */
export function instanceRoutes(registry: Pick<InstanceRegistry, 'list' | 'name'>): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/instances',
      activity: 'Instances.View',
      tag: 'Instances',
      operationId: 'listInstances',
      summary: 'List the Gatehouse instances that share this database',
      description:
        'Every instance that registered with the database (each does at start), with when it last said it was running. Audit entries and monitoring records name the instance that wrote them; their lists filter by it (`instance`).',
      responses: [{ status: 200, description: 'The instances.', schema: InstanceListSchema }],
      problems: [503],
      async handler() {
        const instances = await registry.list();
        return {
          body: {
            instances: instances.map((instance) => ({
              name: instance.name,
              startedAt: new Date(instance.startedAt).toISOString(),
              seenAt: new Date(instance.seenAt).toISOString(),
              current: instance.name === registry.name,
            })),
          },
        };
      },
    }),
  ];
}
