import { describe, expect, it } from 'vitest';
import { groupWarnings } from '../../../src-renderer/screens/apis/import/warning-groups.js';

describe('warning groups', () => {
  it('puts warnings that differ only in names, paths and numbers together, biggest group first', () => {
    const groups = groupWarnings([
      { pointer: '/a', message: 'a response should have a description' },
      {
        pointer: '/b',
        message: 'path parameter {id} of "/a/{id}" is not declared: add a parameter with name: id, in: path',
      },
      {
        pointer: '/c',
        message:
          'path parameter {thingId} of "/t/{thingId}" is not declared: add a parameter with name: thingId, in: path',
      },
      { pointer: '/d', message: 'duplicate operationId "x": GET /a and PUT /b both use it' },
      { pointer: '/e', message: 'duplicate operationId "y": POST /c/{id} and GET /a both use it' },
      { pointer: '/f', message: 'duplicate operationId "y": DELETE /d and GET /a both use it' },
    ]);
    expect(groups.map((group) => group.issues.map((issue) => issue.pointer))).toEqual([
      ['/d', '/e', '/f'],
      ['/b', '/c'],
      ['/a'],
    ]);
  });
});
