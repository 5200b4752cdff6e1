import { describe, expect, it } from 'vitest';
import type { AgentGroup } from '../../../src-renderer/api/types.js';
import { apisViewOf, passthroughEditorPath } from '../../../src-renderer/screens/apis/api-paths.js';
import { countOf, formatSize } from '../../../src-renderer/screens/apis/format-numbers.js';
import { readablePointer } from '../../../src-renderer/screens/apis/import/json-pointer.js';
import { passthroughStatusOf } from '../../../src-renderer/screens/apis/passthrough-status.js';

const group = (id: string, platform: AgentGroup['platform']): AgentGroup => ({
  id,
  name: id,
  environmentId: 'development',
  platform,
  host: '127.0.0.1',
  port: 0,
  listenerUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('the APIs screen', () => {
  it('dispatches the list, the details and the passthrough editor by path', () => {
    expect(apisViewOf('/apis')).toEqual({ kind: 'list' });
    expect(apisViewOf('/apis/')).toEqual({ kind: 'list' });
    expect(apisViewOf('/apis/abc-1')).toEqual({ kind: 'details', apiId: 'abc-1' });
    expect(apisViewOf('/apis/a%20b/passthrough/')).toEqual({ kind: 'passthrough', apiId: 'a b' });
    expect(apisViewOf('/apis/abc/other')).toEqual({ kind: 'unknown' });
    expect(apisViewOf('/apis/%E0%A4%A')).toEqual({ kind: 'unknown' });
    expect(passthroughEditorPath('a/b')).toBe('/apis/a%2Fb/passthrough');
  });

  it('derives the passthrough status from the configuration and the agent groups that run it', () => {
    const groups = [group('default', 'cross-platform'), group('mainframe', 'legacy')];
    expect(passthroughStatusOf({ passthroughId: null, agentGroupIds: ['default'] }, groups)).toBe('none');
    expect(passthroughStatusOf({ passthroughId: 'p', agentGroupIds: ['default'] }, groups)).toBe('deployed');
    expect(passthroughStatusOf({ passthroughId: 'p', agentGroupIds: ['mainframe'] }, groups)).toBe(
      'configured',
    );
    expect(passthroughStatusOf({ passthroughId: 'p', agentGroupIds: [] }, groups)).toBe('configured');
  });

  it('spells out JSON pointers, sizes and counts', () => {
    expect(readablePointer('/paths/~1orders~1{id}/get/parameters/0')).toBe(
      'paths › /orders/{id} › get › parameters › 0',
    );
    expect(readablePointer('/x~0y')).toBe('x~y');
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(812)).toBe('812 bytes');
    expect(formatSize(8_961)).toBe('9 KB');
    expect(formatSize(17_800_000)).toBe('18 MB');
    expect(formatSize(1_500_000)).toBe('1.5 MB');
    expect(countOf(1, 'operation', 'operations')).toBe('1 operation');
    expect(countOf(1200, 'operation', 'operations')).toBe('1,200 operations');
  });
});
