import * as z from 'zod';
import { notFound } from '../../core/http/problem.js';
import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import type { AppRegistrations } from './app-registrations.js';
import {
  AppRegistrationSchema,
  AppRegistrationWithSecretSchema,
  CreateAppRegistrationSchema,
} from '../../core/contracts/identity-schemas.js';

const TAG = 'Identity';

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
      body: { kind: 'json', schema: CreateAppRegistrationSchema },
      responses: [{ status: 201, description: 'Created.', schema: AppRegistrationWithSecretSchema }],
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
      responses: [
        { status: 200, description: 'The new secret, shown once.', schema: AppRegistrationWithSecretSchema },
      ],
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
