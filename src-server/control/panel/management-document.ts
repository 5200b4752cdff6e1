import * as z from 'zod';
import { getActivity } from '../../core/activities/activities.js';
import { ErrorCode } from '../../core/errors/error-codes.js';
import { problemTitleFor } from '../../core/http/problem.js';
import type { QueryParamSpec } from '../../core/http/query-params.js';
import { toOpenApiPath, type AnyRoute } from '../http/route.js';

type JsonObject = Record<string, unknown>;

const ProblemSchema = {
  type: 'object',
  description:
    'RFC 9457 problem details (ASP.NET ProblemDetails shape), with the stable error code as an extension member.',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: {
      type: 'string',
      pattern: '^GH_ERR_[A-Z0-9_]+$',
      description:
        'What went wrong, as a stable code to match on (the wording of `title` and `detail` may change). docs/ERROR-CODES.md lists every code with its status and meaning.',
      example: ErrorCode.GH_ERR_NOT_FOUND,
    },
    detail: { type: 'string' },
    instance: { type: 'string' },
    traceId: { type: 'string' },
  },
  required: ['type', 'title', 'status', 'code'],
};

const ValidationProblemSchema = {
  allOf: [
    { $ref: '#/components/schemas/ProblemDetails' },
    {
      type: 'object',
      properties: {
        errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      },
    },
  ],
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  AuditLog: 'The read-only audit trail log of the tenant.',
  TenantSettings: 'Tenant settings, their pending values, and restarting the Control Panel (Operator).',
  Identity: 'The built-in identity provider and its application registrations.',
  Access: 'Activities and roles.',
  Session: 'The caller and console sign-in.',
  Apis: 'API definitions imported from OpenAPI 3.1/3.0 and Swagger 2.0 documents, exposed at their base paths.',
  Passthroughs:
    'Passthrough configurations: per API, an `All operations` entry and/or per-operation entries forwarding to a templated target URL.',
  Environments: 'Environments (Development exists from the start); each agent group belongs to one.',
  AgentGroups: 'Agent groups: cross-platform groups run a gateway listener here; legacy groups run nothing.',
  EnvironmentVariables:
    'Environment variables referenced as `#env.<variable>.<member>`; secret values always read back masked.',
  Policies:
    'API policies: which endpoints of an agent group are granted to whom (public, API keys, JWT), and throttling.',
  ApiKeys: 'API keys for policies, per environment; a key is shown once and stored as a digest.',
  ApiMonitoring: 'API Monitoring: every request that reached a gateway listener, and summaries for charts.',
};

/** Converts a zod schema, moving named sub-schemas into `components.schemas`. */
function convert(schema: z.ZodType, components: JsonObject): JsonObject {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io: 'output',
  }) as JsonObject;
  const defs = (json.$defs ?? {}) as Record<string, JsonObject>;
  delete json.$defs;
  delete json.$schema;
  for (const [name, def] of Object.entries(defs)) components[name] ??= rewriteRefs(def);
  const rewritten = rewriteRefs(json);
  const id = z.globalRegistry.get(schema)?.id;
  if (id) {
    components[id] ??= rewritten;
    return { $ref: `#/components/schemas/${id}` };
  }
  return rewritten;
}

function rewriteRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(rewriteRefs) as T;
  if (!value || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value as JsonObject)) {
    out[key] =
      key === '$ref' && typeof child === 'string'
        ? child.replace('#/$defs/', '#/components/schemas/')
        : rewriteRefs(child);
  }
  return out as T;
}

function problemResponse(status: number): JsonObject {
  return {
    description: problemTitleFor(status),
    content: {
      'application/problem+json': {
        schema: {
          $ref: `#/components/schemas/${status === 400 ? 'ValidationProblemDetails' : 'ProblemDetails'}`,
        },
      },
    },
  };
}

function operationOf(route: AnyRoute, components: JsonObject): JsonObject {
  const parameters: JsonObject[] = [];
  for (const match of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    parameters.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  for (const [name, spec] of Object.entries((route.query ?? {}) as Record<string, QueryParamSpec<unknown>>)) {
    parameters.push({
      name,
      in: 'query',
      required: false,
      description: spec.description,
      schema: spec.schema,
    });
  }

  const responses: JsonObject = {};
  for (const response of route.responses) {
    const key = String(response.status);
    const existing = responses[key] as { description: string; content?: JsonObject } | undefined;
    const mediaType = response.contentType ?? 'application/json';
    const content =
      response.schema || response.contentType
        ? { [mediaType]: response.schema ? { schema: convert(response.schema, components) } : {} }
        : undefined;
    if (existing) {
      existing.description = `${existing.description} ${response.description}`;
      if (content) existing.content = { ...existing.content, ...content };
    } else {
      responses[key] = { description: response.description, ...(content ? { content } : {}) };
    }
  }
  const problems = new Set<number>(route.problems ?? []);
  if (route.query || route.params || route.body) problems.add(400);
  if (!route.anonymous) {
    problems.add(401);
    problems.add(403);
  }
  for (const status of problems) responses[String(status)] ??= problemResponse(status);

  const operation: JsonObject = {
    tags: [route.tag],
    summary: route.summary,
    operationId: route.operationId,
    description: [route.description, route.anonymous ? undefined : `Activity: \`${route.activity}\`.`]
      .filter(Boolean)
      .join('\n\n'),
    parameters,
    responses,
  };
  if (route.anonymous) operation.security = [];
  if (route.body) {
    const body = route.body;
    if (body.kind === 'raw') {
      operation.requestBody = {
        required: true,
        description: body.description,
        content: Object.fromEntries(body.contentTypes.map((type) => [type, { schema: { type: 'string' } }])),
      };
    } else {
      operation.requestBody = {
        required: body.kind === 'form' || body.required !== false,
        ...(body.description ? { description: body.description } : {}),
        content: {
          [body.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded']: {
            schema: convert(body.schema, components),
          },
        },
      };
    }
  }
  if (!getActivity(route.activity).readOnly && route.audited !== false) {
    operation['x-audited'] = true;
  }
  return operation;
}

/** The OpenAPI 3.1 document of the management API, generated from the routes that are mounted right now. */
export function buildManagementDocument(
  routes: readonly AnyRoute[],
  info: { version: string; serverUrl?: string },
): JsonObject {
  const components: JsonObject = {
    ProblemDetails: ProblemSchema,
    ValidationProblemDetails: ValidationProblemSchema,
  };
  const paths: Record<string, JsonObject> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, components);
    tags.add(route.tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse management API',
      version: info.version,
      description:
        'Management API of the Gatehouse Control Panel. Every route except the identity-provider endpoints needs `Authorization: Bearer <token>`.',
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: [...tags]
      .sort()
      .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
    security: [{ bearer: [] }],
  };
}
