import * as z from 'zod';
import { getActivity } from '../../core/activities/activities.js';
import { BUILT_IN_ROLES, rolesAllow } from '../../core/activities/roles.js';
import {
  ProblemDetailsSchema,
  ValidationProblemDetailsSchema,
} from '../../core/contracts/problem-schemas.js';
import { completeDocumentedSchemas } from '../../core/contracts/documented-schema.js';
import type { QueryParamSpec } from '../../core/http/query-params.js';
import { toOpenApiPath, type AnyRoute, type ResponseSpec } from '../http/route.js';
import {
  frameworkProblems,
  problemDescription,
  problemMediaType,
  problemResponse,
  problemResponseName,
} from './problem-responses.js';

type JsonObject = Record<string, unknown>;
/** Requests are documented as a client may send them (a field with a default is optional), responses as sent. */
type Side = 'input' | 'output';

const TAG_DESCRIPTIONS: Record<string, string> = {
  AuditLog: 'The read-only audit trail log of the tenant.',
  AuditSources:
    'The tenants whose audit trails are synced into this data dir: endpoints, credentials (masked) and syncs.',
  TenantSettings: 'Tenant settings, their pending values, and restarting the Control Panel (Operator).',
  Identity: 'The built-in identity provider and its application registrations.',
  Access: 'Activities and roles.',
  Session: 'The caller and console sign-in.',
  Apis: 'API definitions imported from OpenAPI 3.2/3.1/3.0 and Swagger 2.0 documents, exposed at their base paths.',
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
  Instances:
    'The Gatehouse instances sharing the database (several on one PostgreSQL; one on SQLite), whose names audit entries and monitoring records carry.',
};

const DESCRIPTION = [
  'Management API of the Gatehouse Control Panel: API definitions and their Passthrough configurations, environments, agent groups, variables, API policies and keys, API Monitoring, tenant settings, the built-in identity provider and, when `Flags:EnableServiceApiAuditLogRoute` is on, the audit trail log.',
  'Every operation except the identity-provider endpoints and the console sign-in needs `Authorization: Bearer <token>`; each names the activity it performs and the built-in roles that grant it.',
  'Errors are `application/problem+json` (RFC 9457). Other methods on a documented path answer 405 with an `Allow` header; a path that is not documented answers 404.',
].join('\n\n');

/** A document under construction: named schemas and shared responses land in its components. */
class DocumentComponents {
  readonly schemas: JsonObject = {};
  readonly responses: JsonObject = {};

  /** Converts a zod schema, moving named sub-schemas into `components.schemas`. */
  schema(schema: z.ZodType, side: Side): JsonObject {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      unrepresentable: 'any',
      io: side,
    }) as JsonObject;
    const defs = (json.$defs ?? {}) as Record<string, JsonObject>;
    delete json.$defs;
    delete json.$schema;
    for (const [name, def] of Object.entries(defs)) this.#name(name, rewriteRefs(def));
    const rewritten = rewriteRefs(json);
    const id = z.globalRegistry.get(schema)?.id;
    if (!id) return rewritten;
    // A named root comes back as a reference to its own definition, already among the defs.
    if (!(id in defs)) this.#name(id, rewritten);
    return { $ref: `#/components/schemas/${id}` };
  }

  /** A problem status, as a reference to its shared response. */
  problem(status: number): JsonObject {
    const name = problemResponseName(status);
    this.responses[name] ??= problemResponse(status);
    return { $ref: `#/components/responses/${name}` };
  }

  #name(name: string, schema: JsonObject): void {
    const existing = this.schemas[name];
    if (existing === undefined) this.schemas[name] = schema;
    else if (JSON.stringify(existing) !== JSON.stringify(schema)) {
      // A schema with defaults or transforms reads differently as a request and as a response; one id would
      // document one of the two wrongly.
      throw new Error(
        `The schema ${name} differs between requests and responses: give each side its own id.`,
      );
    }
  }
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

/** A number in the path (a revision) is documented as the integer it is read as; any other parameter is a string. */
function pathParameterSchema(route: AnyRoute, name: string): JsonObject {
  const schema: unknown = route.params instanceof z.ZodObject ? route.params.shape[name] : undefined;
  if (!(schema instanceof z.ZodNumber)) return { type: 'string' };
  const { minValue, format } = schema;
  return {
    type: format === 'safeint' || format === 'int32' || format === 'uint32' ? 'integer' : 'number',
    ...(minValue !== null && minValue > Number.MIN_SAFE_INTEGER ? { minimum: minValue } : {}),
  };
}

function parametersOf(route: AnyRoute): JsonObject[] {
  const parameters: JsonObject[] = [];
  for (const match of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    const name = match[1]!;
    parameters.push({ name, in: 'path', required: true, schema: pathParameterSchema(route, name) });
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
  return parameters;
}

/** A 201 names what it created. */
const LOCATION_HEADER = {
  Location: { description: 'The created resource.', required: true, schema: { type: 'string' } },
};

function ownResponses(responses: readonly ResponseSpec[], components: DocumentComponents): JsonObject {
  const documented: Record<string, { description: string; headers?: JsonObject; content?: JsonObject }> = {};
  for (const response of responses) {
    const key = String(response.status);
    const mediaTypes = [response.contentType ?? 'application/json'].flat();
    const media = response.schema ? { schema: components.schema(response.schema, 'output') } : {};
    const content =
      response.schema || response.contentType
        ? Object.fromEntries(mediaTypes.map((type) => [type, media]))
        : undefined;
    const existing = documented[key];
    if (existing) {
      existing.description = `${existing.description} ${response.description}`;
      if (content) existing.content = { ...existing.content, ...content };
    } else {
      documented[key] = {
        description: response.description,
        ...(response.status === 201 ? { headers: LOCATION_HEADER } : {}),
        ...(content ? { content } : {}),
      };
    }
  }
  return documented;
}

function responsesOf(route: AnyRoute, components: DocumentComponents): JsonObject {
  const responses = ownResponses(route.responses, components);
  const problems = new Set([...frameworkProblems(route), ...(route.problems ?? [])]);
  for (const status of [...problems].sort((a, b) => a - b)) {
    const own = responses[String(status)] as { content?: JsonObject } | undefined;
    // The route's own answer for this status (an OAuth error, say) comes in its media type; the framework's in
    // problem+json.
    if (own) own.content = { ...own.content, ...problemMediaType(status) };
    else responses[String(status)] = components.problem(status);
  }
  return responses;
}

function descriptionOf(route: AnyRoute): string {
  const access = route.anonymous
    ? 'No bearer token needed.'
    : `Activity \`${route.activity}\`, granted to ${BUILT_IN_ROLES.filter((role) => rolesAllow([role], route.activity)).join(', ')}.`;
  return [route.description, access].filter(Boolean).join('\n\n');
}

function requestBodyOf(route: AnyRoute, components: DocumentComponents): JsonObject | undefined {
  const body = route.body;
  if (!body) return undefined;
  if (body.kind === 'raw') {
    return {
      required: true,
      description: body.description,
      content: Object.fromEntries(body.contentTypes.map((type) => [type, { schema: { type: 'string' } }])),
    };
  }
  return {
    required: body.kind === 'form' || body.required !== false,
    ...(body.description ? { description: body.description } : {}),
    content: {
      [body.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded']: {
        schema: components.schema(body.schema, 'input'),
      },
    },
  };
}

function operationOf(route: AnyRoute, components: DocumentComponents): JsonObject {
  const operation: JsonObject = {
    tags: [route.tag],
    summary: route.summary,
    operationId: route.operationId,
    description: descriptionOf(route),
    parameters: parametersOf(route),
  };
  const requestBody = requestBodyOf(route, components);
  if (requestBody) operation.requestBody = requestBody;
  operation.responses = responsesOf(route, components);
  if (route.anonymous) operation.security = [];
  if (!getActivity(route.activity).readOnly && route.audited !== false) operation['x-audited'] = true;
  return operation;
}

/** HEAD of a GET operation: the same statuses and headers, no body. */
function headOf(get: JsonObject): JsonObject {
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(get.responses as Record<string, JsonObject>)) {
    const description =
      typeof response.$ref === 'string' ? problemDescription(Number(status)) : String(response.description);
    responses[status] = { description, ...(response.headers ? { headers: response.headers } : {}) };
  }
  return {
    ...get,
    summary: `${String(get.summary)} (headers only)`,
    operationId: `${String(get.operationId)}Head`,
    description: `The GET answer's status and headers, without its body.\n\n${String(get.description)}`,
    responses,
  };
}

/** The OpenAPI 3.1 document of the management API, generated from the routes that are mounted right now. */
export function buildManagementDocument(
  routes: readonly AnyRoute[],
  info: { version: string; license: string },
): JsonObject {
  completeDocumentedSchemas();
  const components = new DocumentComponents();
  components.schema(ProblemDetailsSchema, 'output');
  components.schema(ValidationProblemDetailsSchema, 'output');
  const paths: Record<string, JsonObject> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const path = (paths[toOpenApiPath(route.path)] ??= {});
    const operation = operationOf(route, components);
    path[route.method.toLowerCase()] = operation;
    if (route.method === 'GET') path.head = headOf(operation);
    tags.add(route.tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse management API',
      version: info.version,
      description: DESCRIPTION,
      license: { name: info.license },
    },
    tags: [...tags]
      .sort()
      .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    components: {
      schemas: components.schemas,
      responses: components.responses,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
    security: [{ bearer: [] }],
  };
}

/** The document as one Control Panel serves it: its own origin is the server. */
export function servedBy(document: JsonObject, origin: string): JsonObject {
  const { openapi, info, ...rest } = document;
  return { openapi, info, servers: [{ url: origin, description: 'This Control Panel.' }], ...rest };
}
