import { describe, expect, it } from 'vitest';
import { TraceWatchers } from '../../../src-server/core/monitoring/trace-watchers.js';
import type { NewMonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { newTraceparent } from '../../../src-server/core/passthrough/forwarding/index.js';
import { showBody } from '../../../src-server/control/passthroughs/try-it/response-body.js';
import { maskHeaders, maskQuery } from '../../../src-server/core/passthrough/secret-redaction.js';
import { requestTargetOf } from '../../../src-server/control/passthroughs/try-it/try-target.js';

const noNames = { headers: new Set<string>(), query: new Set<string>() };

describe('Try it helpers', () => {
  it('resolves paths under the base path or in full, and encodes what a request line cannot carry', () => {
    expect(requestTargetOf('/shop/v1', '/orders/1?x=1')).toBe('/shop/v1/orders/1?x=1');
    expect(requestTargetOf('/shop/v1', '/shop/v1/orders/1')).toBe('/shop/v1/orders/1');
    expect(requestTargetOf('/shop/v1', '/shop/v1x')).toBe('/shop/v1/shop/v1x');
    expect(requestTargetOf('/shop/v1', '/?q=1')).toBe('/shop/v1?q=1');
    expect(requestTargetOf('/', '/a b/ü#x')).toBe('/a%20b/%C3%BC%23x');
  });

  it('masks credential-like query values and header values, and API-key names of policies', () => {
    const names = { headers: new Set(['x-partner']), query: new Set(['pk']) };
    expect(maskQuery('/a?api_key=1&x=2&pk=3&flag', names)).toBe('/a?api_key=********&x=2&pk=********&flag');
    expect(maskQuery('/a', noNames)).toBe('/a');
    expect(
      maskHeaders(
        [
          { name: 'Authorization', value: 'Bearer x' },
          { name: 'X-Partner', value: 'p' },
          { name: 'Accept', value: '*/*' },
        ],
        names,
      ).map((header) => header.value),
    ).toEqual(['********', '********', '*/*']);
  });

  it('shows text as text (by charset), binary and compressed bodies as base64', () => {
    expect(showBody(Buffer.from('{"a":1}'), 'application/json', undefined, true)).toEqual({
      body: '{"a":1}',
      bodyEncoding: 'text',
    });
    expect(showBody(Buffer.from([0xe9]), 'text/plain; charset=ISO-8859-1', undefined, true).body).toBe('é');
    expect(showBody(Buffer.from([0, 1, 2]), undefined, undefined, true).bodyEncoding).toBe('base64');
    expect(showBody(Buffer.from('{}'), 'application/json', 'gzip', true).bodyEncoding).toBe('base64');
    // A body cut inside a multi-byte character is still text.
    const cut = Buffer.from('aé').subarray(0, 2);
    expect(showBody(cut, 'text/plain', undefined, false)).toEqual({ body: 'a', bodyEncoding: 'text' });
  });

  it('hands a watcher the record of its trace, whether it arrives before or after the wait', async () => {
    const watchers = new TraceWatchers();
    const record = { path: '/x' } as NewMonitoringRecord;
    const early = newTraceparent();
    const watch = watchers.watch(early.slice(3, 35))!;
    watchers.notify(newTraceparent(), { path: '/other' } as NewMonitoringRecord);
    watchers.notify(early, record);
    expect(await watch.record(1000)).toBe(record);

    const late = newTraceparent();
    const lateWatch = watchers.watch(late.slice(3, 35))!;
    const waiting = lateWatch.record(1000);
    watchers.notify(late, record);
    expect(await waiting).toBe(record);

    const none = watchers.watch(newTraceparent().slice(3, 35))!;
    expect(await none.record(20)).toBeUndefined();
  });
});
