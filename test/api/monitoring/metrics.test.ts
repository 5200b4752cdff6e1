import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { record } from '../../unit/monitoring/helpers.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A strict reader of the Prometheus text format (0.0.4): throws on any line it does not understand. */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`unparseable exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const labelText = sample[2] ?? '';
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
    let match: RegExpExecArray | null;
    let consumed = 0;
    while ((match = labelPattern.exec(labelText))) {
      labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed = labelPattern.lastIndex;
    }
    if (consumed !== labelText.length) throw new Error(`unparseable labels: ${line}`);
    // Like Prometheus' own parser: NaN and Inf in any case.
    const raw = sample[3]!;
    const value = /^[+-]?inf$/i.test(raw) ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw);
    if (Number.isNaN(value) && !/^nan$/i.test(raw)) throw new Error(`bad value: ${line}`);
    const family = sample[1]!.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(sample[1]!) && !types.has(family)) throw new Error(`sample without TYPE: ${line}`);
    samples.push({ name: sample[1]!, labels, value });
  }
  return { samples, types };
}

/** One request on a fresh connection (a pooled one may be closed by a Control Panel restart). */
function get(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent: false, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

describe('GET /metrics', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const scrape = async (): Promise<{ samples: Sample[]; types: Map<string, string>; text: string }> => {
    const response = await get(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return { ...parseExposition(response.text), text: response.text };
  };

  it('is open by default and exposes the request counter, the histogram, the store and the process', async () => {
    const { monitoring } = server.gatehouse;
    for (let i = 0; i < 3; i++) {
      monitoring.record(
        record({ apiId: 'api-1', operation: 'GET /orders/{id}', status: 200, durationMs: 40 }),
      );
    }
    monitoring.record(record({ apiId: 'api-1', status: 502, outcome: 'upstream-error', durationMs: 3_000 }));
    monitoring.record(record({ status: 404, outcome: 'unmatched', method: 'BREW', durationMs: 1 }));
    monitoring.record(record({ status: 0, outcome: 'client-aborted', method: 'POST' }));
    await monitoring.flush();
    const { samples, types } = await scrape();
    const requests = 'gatehouse_gateway_requests_total';
    expect(types.get(requests)).toBe('counter');
    const forwarded = {
      agent_group: 'default',
      api: 'api-1',
      method: 'GET',
      status_class: '2xx',
      outcome: 'forwarded',
    };
    expect(valueOf(samples, requests, forwarded)).toBe(3);
    expect(valueOf(samples, requests, { api: 'api-1', status_class: '5xx', outcome: 'upstream-error' })).toBe(
      1,
    );
    expect(
      valueOf(samples, requests, { api: 'none', method: 'OTHER', status_class: '4xx', outcome: 'unmatched' }),
    ).toBe(1);
    expect(
      valueOf(samples, requests, { method: 'POST', status_class: 'other', outcome: 'client-aborted' }),
    ).toBe(1);

    const histogram = 'gatehouse_gateway_request_duration_seconds';
    expect(types.get(histogram)).toBe('histogram');
    expect(valueOf(samples, `${histogram}_count`, { agent_group: 'default', api: 'api-1' })).toBe(4);
    expect(valueOf(samples, `${histogram}_bucket`, { api: 'api-1', le: '0.05' })).toBe(3);
    expect(valueOf(samples, `${histogram}_bucket`, { api: 'api-1', le: '5' })).toBe(4);
    expect(valueOf(samples, `${histogram}_sum`, { api: 'api-1' })).toBeCloseTo(3.12, 6);

    expect(valueOf(samples, 'gatehouse_monitoring_store_records')).toBe(6);
    expect(valueOf(samples, 'gatehouse_monitoring_buffered_records')).toBe(0);
    expect(valueOf(samples, 'gatehouse_monitoring_dropped_records_total', { reason: 'buffer_full' })).toBe(0);
    expect(types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
  });

  it('never puts paths, target URLs, identities or reasons in labels', async () => {
    const { monitoring } = server.gatehouse;
    monitoring.record(
      record({
        path: '/customers/secret-path-4711',
        targetUrl: 'https://backend.test/x?token=SECRET-TOKEN-1234',
        identity: 'apiKey:gh_SECRETPREFIX',
        reason: 'SECRET-REASON',
        clientIp: '203.0.113.99',
        apiId: 'api-2',
      }),
    );
    await monitoring.flush();
    const { text } = await scrape();
    for (const secret of [
      'secret-path-4711',
      'SECRET-TOKEN',
      'gh_SECRETPREFIX',
      'SECRET-REASON',
      '203.0.113.99',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('keeps the number of API label values bounded', async () => {
    const { monitoring } = server.gatehouse;
    for (let i = 0; i < 2_100; i++) monitoring.record(record({ apiId: `bulk-${i}` }));
    await monitoring.flush();
    const { samples } = await scrape();
    const apis = new Set(
      samples.filter((s) => s.name === 'gatehouse_gateway_requests_total').map((s) => s.labels.api),
    );
    // 2,000 distinct ids at most, plus `other` and `none` (requests that matched no API).
    expect(apis.size).toBeLessThanOrEqual(2_002);
    expect(apis.has('other')).toBe(true);
  });

  it('counts records dropped by a flood', async () => {
    const { monitoring } = server.gatehouse;
    // The default buffer holds 20,000 records; one synchronous burst of 25,000 overflows it.
    for (let i = 0; i < 25_000; i++) monitoring.record(record({ apiId: 'api-1', method: 'PATCH' }));
    await monitoring.flush();
    const { samples } = await scrape();
    expect(valueOf(samples, 'gatehouse_monitoring_dropped_records_total', { reason: 'buffer_full' })).toBe(
      5_000,
    );
    expect(valueOf(samples, 'gatehouse_gateway_requests_total', { api: 'api-1', method: 'PATCH' })).toBe(
      25_000,
    );
  });

  it('keeps counting across a Control Panel restart', async () => {
    const before = valueOf((await scrape()).samples, 'gatehouse_gateway_requests_total', {
      api: 'api-1',
      status_class: '2xx',
    });
    await server.gatehouse.restartControlPanel();
    const after = valueOf((await scrape()).samples, 'gatehouse_gateway_requests_total', {
      api: 'api-1',
      status_class: '2xx',
    });
    expect(after).toBe(before);
  });

  it('answers HEAD, and 405 for other methods', async () => {
    const head = await get(`${server.url}/metrics`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await get(`${server.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('GET /metrics with Monitoring:MetricsRequireAuth', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Monitoring:MetricsRequireAuth': true } });
  });
  afterAll(() => server.close());

  it('requires a bearer token granting Monitoring.View', async () => {
    const anonymous = await fetch(`${server.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const garbage = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: 'Bearer not.a.token' },
    });
    expect(garbage.status).toBe(401);
    const withoutGrant = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${await server.token(['NotARole'])}` },
    });
    expect(withoutGrant.status).toBe(403);
    const auditor = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${await server.token(['Auditor'])}` },
    });
    expect(auditor.status).toBe(200);
    const { types } = parseExposition(await auditor.text());
    expect(types.get('gatehouse_gateway_requests_total')).toBe('counter');
  });
});
