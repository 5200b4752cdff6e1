import { describe, expect, it } from 'vitest';
import { ApiProblemError, describeError, isProblem } from '../../../src-renderer/api/api-errors.js';
import type { ProblemDetails } from '../../../src-renderer/api/types.js';
import { assertNoOverlap } from '../../../src-server/control/apis/api-overlap.js';
import { definitionProblem } from '../../../src-server/control/apis/import-problems.js';
import { ErrorCode } from '../../../src-server/core/contracts/error-codes.js';
import { conflict, HttpProblem, notFound } from '../../../src-server/core/http/problem.js';
import {
  legacyAgentProblem,
  missingValuesProblem,
  type MissingValue,
} from '../../../src-server/control/common/deploy-checks.js';
import { listNames, quoted } from '../../../src-server/control/common/records.js';
import type { AgentGroupRecord, ConfigData } from '../../../src-server/core/model/config-model.js';

const TRACE_ID = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';

/** The error the console builds from the body the server's own problem sends, as it crosses the wire. */
function receive(problem: HttpProblem, instance = '/api/v1/apis/orders/passthrough'): ApiProblemError {
  const body = JSON.parse(JSON.stringify(problem.toProblem(instance, TRACE_ID))) as ProblemDetails;
  return new ApiProblemError(problem.status, body);
}

function thrownBy(action: () => void): HttpProblem {
  try {
    action();
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

function missing(reference: string, environment: string, agentGroup: string): MissingValue {
  return {
    reference,
    environment: { id: environment.toLowerCase(), name: environment },
    agentGroup: { id: agentGroup.toLowerCase(), name: agentGroup },
  };
}

const group = (name: string) => ({ id: name.toLowerCase(), name }) as AgentGroupRecord;

describe('ApiProblemError', () => {
  it('keeps the extension members as sent, and only those', () => {
    const error = receive(missingValuesProblem([missing('#env.unset', 'Development', 'Default')]));
    expect(error.extensions).toEqual({
      missingValues: [
        {
          reference: '#env.unset',
          environmentId: 'development',
          environmentName: 'Development',
          agentGroupId: 'default',
          agentGroupName: 'Default',
        },
      ],
    });
    expect(error.traceId).toBe(TRACE_ID);
  });

  it('takes the code from the body, and is recognised by it', () => {
    const legacy = receive(legacyAgentProblem([group('Old agents')]));
    expect(legacy.code).toBe('GH_ERR_LEGACY_AGENT_GROUP');
    expect(legacy.is('GH_ERR_MISSING_VARIABLE_VALUES', 'GH_ERR_LEGACY_AGENT_GROUP')).toBe(true);
    expect(legacy.is('GH_ERR_MISSING_VARIABLE_VALUES')).toBe(false);
    expect(isProblem(legacy, 'GH_ERR_LEGACY_AGENT_GROUP')).toBe(true);
    expect(isProblem(new Error('GH_ERR_LEGACY_AGENT_GROUP'), 'GH_ERR_LEGACY_AGENT_GROUP')).toBe(false);
  });

  it('has no code when something else answered (a proxy in between)', () => {
    const foreign = new ApiProblemError(404, { title: 'Not Found', status: 404 });
    expect(foreign.code).toBeUndefined();
    expect(foreign.is('GH_ERR_NOT_FOUND')).toBe(false);
    expect(receive(notFound()).is('GH_ERR_NOT_FOUND')).toBe(true);
  });

  it('has no extensions for a validation problem', () => {
    expect(receive(definitionProblem([{ pointer: '/info', message: 'is required' }])).extensions).toEqual({});
  });
});

describe('describeError', () => {
  it('lists the missing values of a refused deployment by environment (422)', () => {
    const described = describeError(
      receive(
        missingValuesProblem([
          missing('#env.unset', 'Development', 'Default'),
          missing('#env.unset', 'Development', 'Edge'),
          missing('#env.backend.region', 'Development', 'Default'),
          missing('#env.unset', 'Production', 'Live'),
        ]),
      ),
    );
    expect(described.detail).toContain("#env.unset has no value in environment 'Development'");
    expect(described.extensionMessages).toEqual([
      "Missing values in environment 'Development': #env.unset, #env.backend.region",
      "Missing value in environment 'Production': #env.unset",
    ]);
  });

  it('names the target URL of a request the gateway did not answer in time (504), as masked', () => {
    const timedOut = new HttpProblem(
      ErrorCode.GH_ERR_TRY_IT_TIMEOUT,
      'The gateway did not answer within the time limit.',
      {
        extensions: { targetUrl: 'http://127.0.0.1:9000/all/slow?key=********' },
      },
    );
    const described = describeError(receive(timedOut, '/api/v1/apis/orders/passthrough/try'));
    expect(described).toEqual({
      title: 'Gateway Timeout',
      detail: 'The gateway did not answer within the time limit.',
      fieldMessages: [],
      extensionMessages: ['Target URL: http://127.0.0.1:9000/all/slow?key=********'],
    });

    const neverForwarded = new HttpProblem(
      ErrorCode.GH_ERR_TRY_IT_TIMEOUT,
      'The gateway did not answer within the time limit.',
      {
        extensions: { targetUrl: null },
      },
    );
    expect(describeError(receive(neverForwarded)).extensionMessages).toEqual([]);
  });

  it('reads the members its code brings, not whatever members a problem has', () => {
    const body = {
      type: 'about:blank',
      title: 'Bad Gateway',
      status: 502,
      code: 'GH_ERR_GATEWAY_UNREACHABLE',
      targetUrl: 'http://127.0.0.1:9000/',
      missingValues: [{ reference: '#env.a', environmentName: 'Development' }],
    };
    expect(describeError(new ApiProblemError(502, body)).extensionMessages).toEqual([]);
    const timedOut = { ...body, status: 504, code: 'GH_ERR_TRY_IT_TIMEOUT' };
    expect(describeError(new ApiProblemError(504, timedOut)).extensionMessages).toEqual([
      'Target URL: http://127.0.0.1:9000/',
    ]);
  });

  it('adds nothing the detail already says: legacy agent groups (422), an overlapping base path (409)', () => {
    const legacy = receive(legacyAgentProblem([group('Old agents'), group('Older agents')]));
    expect(legacy.extensions.legacyAgentGroups).toHaveLength(2);
    expect(describeError(legacy).extensionMessages).toEqual([]);

    const data = {
      apis: [{ id: 'base', name: 'Base', basePath: '/api', agentGroupIds: ['default'] }],
      agentGroups: [group('Default')],
    } as unknown as ConfigData;
    const overlap = receive(
      thrownBy(() => assertNoOverlap(data, { id: 'new', basePath: '/api/v2', agentGroupIds: ['default'] })),
      '/api/v1/apis',
    );
    expect(overlap.extensions.conflictingApi).toEqual({ id: 'base', name: 'Base', basePath: '/api' });
    expect(describeError(overlap).extensionMessages).toEqual([]);
  });

  it('lists everything that blocks a deletion when the detail names only the first five (409)', () => {
    const refusal = (names: string[]) =>
      // As EnvironmentService.delete words it.
      conflict(
        ErrorCode.GH_ERR_IN_USE,
        `The environment 'Staging' is used by the agent groups ${listNames(names.map(quoted))}. Move them to another environment first.`,
        { agentGroups: names.map(group) },
      );
    const seven = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
    const described = describeError(receive(refusal(seven), '/api/v1/environments/staging'));
    expect(described.detail).toContain('and 2 more');
    expect(described.extensionMessages).toEqual(['Agent groups: A, B, C, D, E, F, G']);

    expect(describeError(receive(refusal(['A', 'B']))).extensionMessages).toEqual([]);
  });

  it('leaves the document errors of an import to their field messages (400)', () => {
    const described = describeError(
      receive(
        definitionProblem([
          { pointer: '', message: 'YAML syntax error at line 3, column 7: bad indentation' },
          { pointer: '/paths/~1orders/get', message: 'responses is required' },
        ]),
        '/api/v1/apis',
      ),
    );
    expect(described.fieldMessages).toEqual([
      ': YAML syntax error at line 3, column 7: bad indentation',
      '/paths/~1orders/get: responses is required',
    ]);
    expect(described.extensionMessages).toEqual([]);
  });
});
