import { describe, expect, it } from 'vitest';
import { PolicyTable } from '../../../src-server/gateway/policies/policy-table.js';
import type { PolicyRecord } from '../../../src-server/core/model/config-model.js';

function policy(id: string, endpoints: PolicyRecord['endpoints']): PolicyRecord {
  return {
    id,
    name: id,
    agentGroupId: 'g',
    endpoints,
    grants: [{ type: 'public' }],
    createdAt: '',
    updatedAt: '',
  };
}
const ids = (policies: PolicyRecord[]) => policies.map((p) => p.id).sort();
const segments = (path: string) => path.slice(1).split('/').map(decodeURIComponent);

describe('policy precedence', () => {
  const table = new PolicyTable([
    policy('all-root', [{ method: 'ALL', pathPrefix: '/' }]),
    policy('all-api', [{ method: 'ALL', pathPrefix: '/api' }]),
    policy('get-api', [{ method: 'GET', pathPrefix: '/api' }]),
    policy('get-api-admin', [{ method: 'GET', pathPrefix: '/api/admin/' }]),
    policy('also-get-api', [{ method: 'GET', pathPrefix: '/api' }]),
    policy('post-caf', [{ method: 'POST', pathPrefix: '/caf%C3%A9' }]),
  ]);

  it('prefers the method over ALL, then the longest prefix, and returns every policy at that rank', () => {
    expect(ids(table.applicable('GET', segments('/api/orders')))).toEqual(['also-get-api', 'get-api']);
    expect(ids(table.applicable('GET', segments('/api/admin/users')))).toEqual(['get-api-admin']);
    expect(ids(table.applicable('DELETE', segments('/api/orders')))).toEqual(['all-api']);
    expect(ids(table.applicable('DELETE', segments('/other')))).toEqual(['all-root']);
  });

  it('matches whole (decoded) segments only', () => {
    expect(ids(table.applicable('GET', segments('/apiv2/x')))).toEqual(['all-root']);
    expect(ids(table.applicable('GET', segments('/api')))).toEqual(['also-get-api', 'get-api']);
    expect(ids(table.applicable('POST', segments('/café/x')))).toEqual(['post-caf']);
  });

  it('applies nothing when no policy covers the endpoint', () => {
    expect(
      new PolicyTable([policy('p', [{ method: 'GET', pathPrefix: '/a' }])]).applicable('GET', segments('/b')),
    ).toEqual([]);
  });
});
