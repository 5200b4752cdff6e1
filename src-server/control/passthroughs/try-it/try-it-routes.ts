import * as z from 'zod';
import { normalizeBasePath } from '../../../core/paths/base-path.js';
import { apiResource } from '../../apis/routes/api-audit.js';
import { urlOf } from '../../../core/net/listener.js';
import { traceIdOf, type TraceWatch } from '../../../core/monitoring/trace-watchers.js';
import { HttpProblem } from '../../../core/http/problem.js';
import { defineRoute, type AnyRoute } from '../../http/route.js';
import type { ManagementContext } from '../../common/management-context.js';
import { quoted } from '../../common/records.js';
import type { NewMonitoringRecord } from '../../../core/monitoring/monitoring-record.js';
import { newTraceparent } from '../../../core/passthrough/forwarding/index.js';
import { showBody } from './response-body.js';
import { sendToGateway, type GatewayAnswer } from './send-to-gateway.js';
import {
  DEFAULT_TRY_TIMEOUT_MS,
  TryRequestSchema,
  TryResultSchema,
  type TryResult,
} from '../../../core/contracts/try-it-schemas.js';
import {
  credentialNamesOf,
  maskHeaders,
  maskQuery,
  secretRedactor,
} from '../../../core/passthrough/secret-redaction.js';
import { requestTargetOf, resolveTryTarget, type ListenerAddress } from './try-target.js';
import { ErrorCode } from '../../../core/contracts/error-codes.js';
import { TRY_DRAFT_HEADER } from '../../../core/contracts/constants.js';
import type { ConfigData, PassthroughRecord } from '../../../core/model/config-model.js';
import { draftFor } from './try-draft.js';

/** What "Try it" needs from the gateway: where a group listens, the record of one request, drafts. */
export interface TryItGateway {
  localAddress: (agentGroupId: string) => ListenerAddress | undefined;
  readonly traces: { watch: (traceId: string) => TraceWatch | undefined };
  /**
   * Registers a configuration for one request of a group: the request carrying the token in `TRY_DRAFT_HEADER`
   * runs with `passthrough` in place of the saved one. Undefined when the group has no runtime.
   */
  tryDraft: (
    agentGroupId: string,
    data: Readonly<ConfigData>,
    passthrough: PassthroughRecord,
  ) => { token: string; release: () => void } | undefined;
}

/** How long the monitoring record may trail the answer (it is written when the gateway's response closes). */
const RECORD_WAIT_MS = 2_000;
const MAX_JSON_BYTES = 4 * 1024 * 1024;

/** `POST /api/v1/apis/{apiId}/passthrough/try`: one real request through the gateway, from the editor. */
export function passthroughTryRoutes(context: ManagementContext, gateway: TryItGateway): AnyRoute[] {
  const { tenant } = context;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/apis/:apiId/passthrough/try',
      activity: 'Passthroughs.Try',
      tag: 'Passthroughs',
      operationId: 'tryPassthrough',
      summary:
        'Send a request through the gateway (saved or draft configuration) and see what was forwarded and answered',
      description:
        "Sends the request over HTTP to the gateway listener of one of the API's cross-platform agent groups " +
        '(never anywhere else), with the saved configuration (or, with `draft`, an unsaved one checked like a save ' +
        'and used for this request only), policies and monitoring, and returns the answer ' +
        'with the target URL the gateway built (from the API Monitoring record of that request, secrets as ' +
        '********). Header values of credential headers, credential-like query values and secret environment ' +
        'values echoed by the target are masked; the audit entry records the body size, not the body, and for a ' +
        'draft the operations it held: a try, not a change.',
      params: z.object({ apiId: z.string().min(1).max(100) }),
      body: { kind: 'json', schema: TryRequestSchema, limit: MAX_JSON_BYTES },
      responses: [
        {
          status: 200,
          description: 'The answer the gateway gave (whatever its status).',
          schema: TryResultSchema,
        },
      ],
      problems: [404, 409, 413, 422, 502, 503, 504],
      async handler({ params, body, audit }) {
        const data = tenant.configStore.data;
        const names = credentialNamesOf(data);
        const headers = body.headers ?? [];
        const requestBody = body.body === undefined ? undefined : Buffer.from(body.body, 'utf8');
        // Set first: a refusal below is audited with these instead of the raw values.
        const auditParameters: Record<string, unknown> = {
          path: maskQuery(body.path, names),
          headers: maskHeaders(headers, names),
          body: requestBody === undefined ? undefined : `(${requestBody.length} bytes)`,
        };
        audit.extraParameters = auditParameters;
        // Named before resolving: a refusal (no saved passthrough, legacy group) is then audited against its API.
        const api = data.apis.find((candidate) => candidate.id === params.apiId);
        if (api) audit.resources = [apiResource(api)];

        const target = resolveTryTarget(
          data,
          params.apiId,
          body.agentGroupId,
          (id) => gateway.localAddress(id),
          body.draft !== undefined,
        );
        const agentGroup = { id: target.group.id, name: target.group.name };
        audit.agentGroup = agentGroup;

        const draft = body.draft
          ? draftFor(context, data, target.api.id, target.group.id, body.draft)
          : undefined;
        if (draft) auditParameters.draft = draft.summary;
        const method = body.method.toUpperCase();
        const requestTarget = requestTargetOf(normalizeBasePath(target.api.basePath), body.path);
        const traceparent = newTraceparent();
        const watch = gateway.traces.watch(traceIdOf(traceparent));
        if (!watch)
          throw new HttpProblem(ErrorCode.GH_ERR_TRY_IT_BUSY, 'Too many requests are being tried at once.');
        let registered: ReturnType<TryItGateway['tryDraft']>;
        try {
          registered = draft ? gateway.tryDraft(target.group.id, draft.data, draft.passthrough) : undefined;
        } catch (error) {
          watch.cancel();
          throw error;
        }
        if (draft && !registered) {
          watch.cancel();
          throw new HttpProblem(
            ErrorCode.GH_ERR_GATEWAY_UNREACHABLE,
            `The gateway listener of ${quoted(target.group.name)} is not running.`,
          );
        }
        try {
          const exchange = await sendToGateway({
            ...target.address,
            method,
            path: requestTarget,
            headers: [
              ...headers.filter(({ name }) => name.toLowerCase() !== TRY_DRAFT_HEADER),
              { name: 'traceparent', value: traceparent },
              ...(registered ? [{ name: TRY_DRAFT_HEADER, value: registered.token }] : []),
            ],
            body: requestBody,
            timeoutMs: body.timeoutMs ?? DEFAULT_TRY_TIMEOUT_MS,
          });
          if (!exchange.ok) return await failed(exchange.failure, watch, target.address, target.group.name);
          const record = await watch.record(RECORD_WAIT_MS);

          const redact = secretRedactor(data, target.group.environmentId, target.api.id, tenant.secretBox);
          const result = describe(exchange.answer, record, redact);
          auditParameters.result = { status: result.status, outcome: result.outcome };
          return {
            body: {
              agentGroup,
              request: {
                method,
                url: `${urlOf(target.address.host, target.address.port)}${maskQuery(requestTarget, names)}`,
                traceparent,
              },
              ...result,
            } satisfies TryResult,
          };
        } finally {
          watch.cancel();
          registered?.release();
        }
      },
    }),
  ];
}

function describe(
  answer: GatewayAnswer,
  record: NewMonitoringRecord | undefined,
  redact: (text: string) => string,
): Omit<TryResult, 'agentGroup' | 'request'> {
  const headerValue = (name: string) =>
    answer.headers.find((header) => header.name.toLowerCase() === name)?.value;
  const shown = showBody(
    answer.body,
    headerValue('content-type'),
    headerValue('content-encoding'),
    answer.complete,
  );
  return {
    targetUrl: record?.targetUrl ?? null,
    outcome: record?.outcome ?? null,
    ...(record?.reason ? { reason: record.reason } : {}),
    ...(record?.operation ? { operation: record.operation } : {}),
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers.map(({ name, value }) => ({ name, value: redact(value) })),
    body: shown.bodyEncoding === 'text' ? redact(shown.body) : shown.body,
    bodyEncoding: shown.bodyEncoding,
    bodyBytes: answer.bodyBytes,
    bodyTruncated: !answer.complete,
    durationMs: answer.durationMs,
  };
}

/** No answer: still say how far the request got, from its monitoring record when there is one. */
async function failed(
  failure: 'timeout' | 'unreachable',
  watch: TraceWatch,
  address: ListenerAddress,
  groupName: string,
): Promise<never> {
  if (failure === 'unreachable') {
    throw new HttpProblem(
      ErrorCode.GH_ERR_GATEWAY_UNREACHABLE,
      `The gateway listener of ${quoted(groupName)} at ${urlOf(address.host, address.port)} could not be reached.`,
    );
  }
  const record = await watch.record(RECORD_WAIT_MS);
  throw new HttpProblem(
    ErrorCode.GH_ERR_TRY_IT_TIMEOUT,
    'The gateway did not answer within the time limit.',
    {
      extensions: { targetUrl: record?.targetUrl ?? null },
    },
  );
}
