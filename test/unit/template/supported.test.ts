import { describe, expect, it } from 'vitest';
import { describeSupported, listSupported } from '../../../src-server/core/template/index.js';
import { allOperationsContext, context } from './scope-fixtures.js';

describe('supported list for the editor', () => {
  it('describes the language in one text', () => {
    const text = describeSupported();
    for (const part of [
      '#env.<variable>.<member>',
      '#api.QueryParameters',
      'DateTime.UtcNow',
      'Guid.NewGuid()',
      '??',
      'Substring',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('lists generic references without a context', () => {
    const labels = listSupported().map((item) => item.label);
    expect(labels).toContain('#env.<variable>.<member>');
    expect(labels).toContain('#api.QueryParameters.<name>');
    expect(labels).toContain('.ToUpper()');
  });

  it('lists the actual environment members and path parameters with a context', () => {
    const items = listSupported(context);
    const labels = items.map((item) => item.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        '#env.backend.url',
        '#env.region',
        '#env["my-var"]',
        '#api.OperationPath.id',
        '#api.OperationPath["order-id"]',
      ]),
    );
    expect(items.find((item) => item.label === '.ToUpper()')?.insertText).toBe('ToUpper()');
    expect(
      listSupported(allOperationsContext).some((item) => item.label.startsWith('#api.OperationPath.')),
    ).toBe(false);
  });
});
