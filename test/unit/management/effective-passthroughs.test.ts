import { describe, expect, it } from 'vitest';
import { effectivePassthroughs } from '../../../src-server/control/passthroughs/effective-passthroughs.js';
import type { ConfigData } from '../../../src-server/core/model/config-model.js';

const at = '2026-01-01T00:00:00.000Z';

function group(id: string, platform: 'cross-platform' | 'legacy') {
  return {
    id,
    name: id,
    environmentId: 'development',
    platform,
    host: '127.0.0.1',
    port: 0,
    createdAt: at,
    updatedAt: at,
  };
}

function api(id: string, agentGroupIds: string[]) {
  return {
    id,
    name: id,
    version: '1',
    specVersion: '3.0' as const,
    basePath: `/${id}`,
    agentGroupIds,
    documentFile: `${id}.json`,
    operations: [],
    revision: 1,
    importedAt: at,
    updatedAt: at,
  };
}

function passthrough(apiId: string) {
  return { id: `p-${apiId}`, apiId, operations: {}, revision: 1, createdAt: at, updatedAt: at };
}

describe('effectivePassthroughs', () => {
  it('lists each passthrough with the cross-platform agent groups it runs on', () => {
    const data = {
      agentGroups: [
        group('default', 'cross-platform'),
        group('old', 'legacy'),
        group('edge', 'cross-platform'),
      ],
      apis: [api('a', ['default', 'old', 'edge']), api('b', ['old']), api('c', [])],
      passthroughs: [passthrough('a'), passthrough('b'), passthrough('c'), passthrough('gone')],
    } as unknown as ConfigData;
    const effective = effectivePassthroughs(data);
    expect(effective.map((item) => [item.api.id, item.agentGroups.map((g) => g.id)])).toEqual([
      ['a', ['default', 'edge']],
    ]);
  });
});
