import * as z from 'zod';
import { notFound } from '../../core/http/problem.js';
import { LIST_PAGING_QUERY, listPageSchema, paginate } from '../../core/http/paging.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import type { AppRegistrations } from './app-registrations.js';
import { BUILT_IN_ROLES } from '../../core/activities/roles.js';

const TAG = 'Identity';

const AppRegistrationSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    name: z.string(),
    roles: z.array(z.string()),
    createdAt: z.string(),
    secretUpdatedAt: z.string(),
  })
  .meta({
    id: 'AppRegistration',
    description: 'A client-credentials application of the built-in identity provider.',
  });

const WithSecretSchema = z
  .object({
    registration: AppRegistrationSchema,
    clientSecret: z.string().meta({ description: 'Shown once; only its hash is kept.' }),
  })
  .meta({ id: 'AppRegistrationWithSecret' });

const CreateSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    roles: z.array(z.enum(BUILT_IN_ROLES)).min(1).max(BUILT_IN_ROLES.length),
  })
  .strict()
  .meta({ id: 'CreateAppRegistration' });

const IdParams = z.object({ id: z.uuid() });

function resourceOf(registration: { id: string; name: string }) {
  return { type: 'AppRegistration', id: registration.id, name: registration.name };
}

export function appRegistrationRoutes(registrations: AppRegistrations): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/app-registrations',
      activity: 'AppRegistrations.View',
      tag: TAG,
      operationId: 'listAppRegistrations',
      summary: 'List application registrations',
      query: LIST_PAGING_QUERY,
      responses: [
        {
          status: 200,
          description: 'Registrations (never their secrets).',
          schema: listPageSchema(AppRegistrationSchema),
        },
      ],
      handler({ query }) {
        return { body: paginate(registrations.list(), query.PageNumber, query.PageSize) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/app-registrations',
      activity: 'AppRegistrations.Create',
      tag: TAG,
      operationId: 'createAppRegistration',
      summary: 'Create an application registration',
      description:
        'Returns the client secret once. Use it with the client-credentials grant at /oauth2/token.',
      body: { kind: 'json', schema: CreateSchema },
      responses: [{ status: 201, description: 'Created.', schema: WithSecretSchema }],
      async handler({ body, audit }) {
        const created = await registrations.create(body.name, [...new Set(body.roles)]);
        audit.resources.push(resourceOf(created.registration));
        audit.extraParameters = { id: created.registration.id, clientId: created.registration.clientId };
        return {
          status: 201,
          body: created,
          headers: { Location: `/api/v1/app-registrations/${created.registration.id}` },
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/app-registrations/:id',
      activity: 'AppRegistrations.Delete',
      tag: TAG,
      operationId: 'deleteAppRegistration',
      summary: 'Delete an application registration',
      params: IdParams,
      responses: [{ status: 204, description: 'Deleted; its tokens stop working when they expire.' }],
      problems: [404],
      async handler({ params, audit }) {
        const removed = await registrations.delete(params.id);
        if (!removed) throw notFound(`No application registration has id ${params.id}.`);
        audit.resources.push(resourceOf(removed));
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/app-registrations/:id/secret',
      activity: 'AppRegistrations.RotateSecret',
      tag: TAG,
      operationId: 'rotateAppRegistrationSecret',
      summary: "Rotate a registration's client secret",
      params: IdParams,
      responses: [{ status: 200, description: 'The new secret, shown once.', schema: WithSecretSchema }],
      problems: [404],
      async handler({ params, audit }) {
        const rotated = await registrations.rotateSecret(params.id);
        if (!rotated) throw notFound(`No application registration has id ${params.id}.`);
        audit.resources.push(resourceOf(rotated.registration));
        return { body: rotated };
      },
    }),
  ];
}
