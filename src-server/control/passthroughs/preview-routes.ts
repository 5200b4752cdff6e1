import * as z from 'zod';
import { normalizeBasePath } from '../../core/paths/base-path.js';
import { notFound, validationProblem } from '../../core/http/problem.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import {
  PassthroughPreviewRequestSchema,
  PassthroughPreviewSchema,
  type PassthroughPreviewRequest,
  type PreviewError,
} from '../../core/contracts/preview-schemas.js';
import type { ManagementContext } from '../common/management-context.js';
import type { AgentGroupRecord, ConfigData, StoredPassthroughEntry } from '../../core/model/config-model.js';
import { buildEnvironmentScope, shapeOf } from '../../core/passthrough/environment-scope.js';
import {
  compileForwardingEntry,
  planForwarding,
  withEntryDefaults,
} from '../../core/passthrough/forwarding/index.js';
import { buildSampleRequest } from '../../core/passthrough/forwarding/sample-request.js';
import { openEntry } from '../../core/passthrough/sealed-headers.js';
import type { EnvVariableShape, TemplateError } from '../../core/template/index.js';

const TAG = 'Passthroughs';
const ALL_OPERATIONS = 'allOperations';
/** `POST /api/v1/apis/{apiId}/passthrough/preview`: what the gateway would forward, for the editor as one types. */
export function passthroughPreviewRoutes(context: ManagementContext): AnyRoute[] {
  const { tenant, settings } = context;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/apis/:apiId/passthrough/preview',
      activity: 'Passthroughs.Preview',
      audited: false,
      tag: TAG,
      operationId: 'previewPassthrough',
      summary: 'Preview the target URL and headers of a passthrough entry',
      description:
        'Compiles the entry (saved, or unsaved from the body) and renders it for a sample request with the same ' +
        'code the gateway runs. Secret values and credential headers are masked. Nothing is saved or audited.',
      params: z.object({ apiId: z.string().min(1).max(100) }),
      body: { kind: 'json', schema: PassthroughPreviewRequestSchema },
      responses: [
        {
          status: 200,
          description: 'The preview, or the errors that prevent it.',
          schema: PassthroughPreviewSchema,
        },
      ],
      problems: [404],
      handler({ params, body, req }) {
        const data = tenant.configStore.data;
        const api = data.apis.find((candidate) => candidate.id === params.apiId);
        if (!api) throw notFound(`No API has id ${params.apiId}.`);
        const operation =
          body.entry === ALL_OPERATIONS ? undefined : api.operations.find((op) => op.key === body.entry);
        if (body.entry !== ALL_OPERATIONS && !operation) {
          throw validationProblem({ entry: [`The API has no operation ${body.entry}.`] });
        }
        const selected = selectEntry(data, api.id, body);
        if (!selected) {
          throw validationProblem({ entry: [`The configuration has no entry for ${body.entry}.`] });
        }
        const opened = openEntry(withEntryDefaults(selected), tenant.secretBox);
        if (!opened.ok) return { body: failed(opened.errors.map(toPreviewError)) };
        const group = agentGroupFor(data, api.agentGroupIds, body.agentGroupId);
        const shapes: Record<string, EnvVariableShape> = {};
        for (const variable of data.environmentVariables) shapes[variable.name] = shapeOf(variable);

        const compiled = compileForwardingEntry(opened.entry, {
          env: { variables: shapes },
          pathParameters: operation?.pathParameters ?? [],
          scope: operation ? 'operation' : 'allOperations',
        });
        if (!compiled.ok) return { body: failed(compiled.errors.map(toPreviewError)) };

        const basePath = normalizeBasePath(api.basePath);
        const sample = buildSampleRequest(basePath, operation, body.sample);
        if (!sample.ok) return { body: failed([{ place: 'sample', position: 0, message: sample.message }]) };
        const listenerHost = group?.id === 'default' ? settings.str('Gateway:Host') : group?.host;
        const listenerPort = group?.id === 'default' ? settings.int('Gateway:Port') : group?.port;
        const headers = { host: `${listenerHost ?? '127.0.0.1'}:${listenerPort ?? 8080}`, ...sample.headers };
        const env = buildEnvironmentScope(data, group?.environmentId ?? '', tenant.secretBox);
        const plan = planForwarding(
          compiled.compiled,
          {
            method: sample.method,
            path: sample.path,
            query: sample.query,
            headers,
            clientIp: clientIpOf(req.socket.remoteAddress),
            scheme: 'http',
          },
          { basePath, operationPath: sample.operationPath, pathParameters: sample.pathParameters },
          { env: env.lookup, masked: true },
        );
        if (!plan.ok) return { body: failed([{ place: plan.place, position: 0, message: plan.message }]) };
        return { body: { targetUrl: plan.maskedTargetUrl, headers: plan.maskedHeaders ?? {}, errors: [] } };
      },
    }),
  ];
}

/** The entry of the body's configuration, else the saved one (sealed header values still sealed). */
function selectEntry(
  data: Readonly<ConfigData>,
  apiId: string,
  body: PassthroughPreviewRequest,
): StoredPassthroughEntry | undefined {
  const configuration =
    body.configuration ?? data.passthroughs.find((candidate) => candidate.apiId === apiId);
  if (!configuration) return undefined;
  return body.entry === ALL_OPERATIONS ? configuration.allOperations : configuration.operations[body.entry];
}

function agentGroupFor(
  data: Readonly<ConfigData>,
  apiGroupIds: readonly string[],
  requested: string | undefined,
): AgentGroupRecord | undefined {
  if (requested !== undefined) {
    const group = data.agentGroups.find((candidate) => candidate.id === requested);
    if (!group) throw notFound(`No agent group has id ${requested}.`);
    return group;
  }
  const assigned = apiGroupIds.flatMap((id) => data.agentGroups.find((group) => group.id === id) ?? []);
  return (
    assigned.find((group) => group.platform === 'cross-platform') ??
    assigned[0] ??
    data.agentGroups.find((group) => group.id === 'default')
  );
}

function toPreviewError(error: TemplateError): PreviewError {
  return {
    place: error.place,
    position: error.position,
    ...(error.length === undefined ? {} : { length: error.length }),
    message: error.message,
  };
}

function failed(errors: PreviewError[]) {
  return { targetUrl: null, headers: {}, errors };
}

function clientIpOf(address: string | undefined): string {
  if (!address) return '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
