import type { ServedGatehouse } from '../gatehouse-fixture.js';
import { startEchoUpstream } from './echo-upstream.js';
import { managementApi } from './management-api.js';

export interface SampleConfiguration {
  /** Stops the backend the passthrough forwards to. */
  stop: () => Promise<void>;
}

/**
 * What the configuration screens show in screenshots and accessibility checks: a group variable with a secret
 * member and values in Development, the Orders API forwarded through it, an API-key policy, an API key, and
 * monitored traffic (forwarded and unmatched requests).
 */
export async function seedSampleConfiguration(gatehouse: ServedGatehouse): Promise<SampleConfiguration> {
  const upstream = await startEchoUpstream();
  const api = await managementApi(gatehouse);
  const variable = await api.call<{ id: string }>('POST', '/api/v1/environment-variables', {
    kind: 'group',
    name: 'backend',
    description: 'The order service behind the Orders API',
    members: [
      { name: 'url', type: 'string' },
      { name: 'token', type: 'secret' },
      { name: 'retries', type: 'number' },
      { name: 'verbose', type: 'boolean' },
    ],
  });
  await api.call('PUT', `/api/v1/environment-variables/${variable.id}/values/development`, {
    members: { url: upstream.url, token: 'sample-secret', retries: 3, verbose: false },
  });
  const orders = await api.importOrdersApi();
  await api.call('POST', `/api/v1/apis/${orders.id}/passthrough`, {
    allOperations: {
      target: {
        section1: '{{#env.backend.url}}',
        section2: 'orders',
        section4: 'key={{#env.backend.token}}',
      },
    },
    policy: { name: 'Orders public', grants: [{ type: 'public' }], throttle: { limit: 600, per: 'minute' } },
  });
  const partners = await api.call<{ id: string }>('POST', '/api/v1/policies', {
    name: 'Partner access',
    agentGroupId: 'default',
    endpoints: [{ method: 'GET', pathPrefix: '/partners' }],
    grants: [{ type: 'apiKey', headerName: 'X-API-Key' }],
  });
  await api.call('POST', '/api/v1/api-keys', {
    name: 'Partner portal',
    environmentId: 'development',
    policyIds: [partners.id],
  });

  const requests = ['/orders-api/v1/orders', '/orders-api/v1/orders/42', '/no-such-api', '/partners/list'];
  for (const path of requests) {
    const response = await fetch(`${gatehouse.gatewayUrl}${path}`);
    await response.arrayBuffer();
  }
  return { stop: () => upstream.close() };
}
