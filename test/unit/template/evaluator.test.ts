import { describe, expect, it } from 'vitest';
import {
  ESCAPED_REQUEST_DATA,
  REQUEST_DATA,
  CONFIGURATION,
} from '../../../src-server/core/template/value.js';
import { evaluateSource, textOfSource } from './pipeline.js';
import { makeScope } from './scope-fixtures.js';

describe('literals', () => {
  it.each([
    ['"plain"', 'plain'],
    ['"tab\\there"', 'tab\there'],
    ['"quote \\" and \\\\ backslash"', 'quote " and \\ backslash'],
    ['"\\u0041\\x42\\U00000043"', 'ABC'],
    ['@"C:\\path\\""quoted"""', 'C:\\path\\"quoted"'],
    ["'x'", 'x'],
    ["'\\''", "'"],
    ['42', '42'],
    ['-7', '-7'],
    ['-2147483648', '-2147483648'],
    ['2147483647', '2147483647'],
    ['true', 'True'],
    ['false', 'False'],
    ['null', ''],
  ])('%s renders as %j', (source, expected) => {
    expect(textOfSource(source)).toBe(expected);
  });
});

describe('operators', () => {
  it.each([
    ['"a" + "b"', 'ab'],
    ['"n" + 1', 'n1'],
    ['1 + "n"', '1n'],
    ['1 + 2 + "x"', '3x'],
    ['"x" + 1 + 2', 'x12'],
    ['"b" + true', 'bTrue'],
    ['"v" + null', 'v'],
    ['2147483647 + 1', '-2147483648'],
    ['1 == 1', 'True'],
    ['1 != 1', 'False'],
    ['"a" == "a"', 'True'],
    ['"a" == "A"', 'False'],
    ['null == null', 'True'],
    ['"a" != null', 'True'],
    ['1 < 2', 'True'],
    ['2 > 2', 'False'],
    ['2 <= 2', 'True'],
    ['1 >= 2', 'False'],
    ['true && false', 'False'],
    ['true || false', 'True'],
    ['!true', 'False'],
    ['!(1 == 2)', 'True'],
    ['1 == 1 ? "yes" : "no"', 'yes'],
    ['1 == 2 ? "yes" : 1 == 1 ? "inner" : "no"', 'inner'],
    ['null ?? "default"', 'default'],
    ['"given" ?? "default"', 'given'],
    ['null ?? null ?? "last"', 'last'],
    ['(("a"))', 'a'],
    ['-(-5)', '5'],
    ['- 3 + 1', '-2'],
    ['true || 1 == 1 && false', 'True'],
    ['"a" + "b" == "ab"', 'True'],
    ['DateTime.UtcNow.AddDays(1) > DateTime.UtcNow', 'True'],
    ['DateTime.UtcNow == DateTime.UtcNow', 'True'],
  ])('%s → %j', (source, expected) => {
    expect(textOfSource(source)).toBe(expected);
  });

  it('short-circuits && and || (the right side is not evaluated)', () => {
    expect(textOfSource('false && #api.QueryParameters.missing.Length > 0')).toBe('False');
    expect(textOfSource('true || #api.QueryParameters.missing.Length > 0')).toBe('True');
  });
});

describe('text members', () => {
  it.each([
    ['"MiXed".ToUpper()', 'MIXED'],
    ['"MiXed".ToLower()', 'mixed'],
    ['"  pad \\t".Trim()', 'pad'],
    ['"abcdef".Substring(2)', 'cdef'],
    ['"abcdef".Substring(1, 3)', 'bcd'],
    ['"abcdef".Substring(6)', ''],
    ['"a-b-c".Replace("-", "_")', 'a_b_c'],
    ["\"a-b-c\".Replace('-', '.')", 'a.b.c'],
    ['"a-b".Replace("-", null)', 'ab'],
    ['"abc".Contains("b")', 'True'],
    ['"abc".Contains("")', 'True'],
    ['"abc".StartsWith("ab")', 'True'],
    ['"abc".EndsWith("bc")', 'True'],
    ['"abc".EndsWith("x")', 'False'],
    ['"abc".Length', '3'],
    ['"abc".ToString()', 'abc'],
    ['5.ToString()', '5'],
    ['true.ToString()', 'True'],
    ['"a".ToUpper().ToLower().Length + 1', '2'],
  ])('%s → %j', (source, expected) => {
    expect(textOfSource(source)).toBe(expected);
  });

  it.each([
    ['"abc".Substring(4)', /the start is outside the text/],
    ['"abc".Substring(-1)', /the start is outside the text/],
    ['"abc".Substring(1, 3)', /the length goes beyond the end/],
    ['"abc".Replace("", "x")', /cannot be null or empty/],
    ['"abc".Contains(null)', /cannot be null/],
    ['#api.QueryParameters.absent.ToUpper()', /#api\.QueryParameters\.absent is null/],
    ['#api.QueryParameters.absent.Length', /is null/],
  ])('%s fails at render time with %s', (source, message) => {
    const outcome = evaluateSource(source);
    expect(outcome.ok).toBe(false);
    if (outcome.ok || outcome.stage !== 'render') throw new Error(`expected a render error for ${source}`);
    expect(outcome.kind).toBe('expression-error');
    expect(outcome.message).toMatch(message);
  });
});

describe('functions', () => {
  it('encodes Basic credentials', () => {
    expect(textOfSource('Convert.ToBase64String(Encoding.UTF8.GetBytes("alice:pa:ss"))')).toBe(
      Buffer.from('alice:pa:ss').toString('base64'),
    );
    expect(textOfSource('Convert.ToBase64String(Encoding.UTF8.GetBytes("é✓"))')).toBe('w6ninJM=');
  });

  it('escapes data like Uri.EscapeDataString', () => {
    expect(textOfSource('Uri.EscapeDataString("a b/c?d=é&~")')).toBe('a%20b%2Fc%3Fd%3D%C3%A9%26~');
  });

  it.each([
    ['string.IsNullOrEmpty(null)', 'True'],
    ['string.IsNullOrEmpty("")', 'True'],
    ['String.IsNullOrEmpty(" ")', 'False'],
    ['string.IsNullOrWhiteSpace(" ")', 'True'],
    ['string.IsNullOrEmpty(#api.QueryParameters.absent)', 'True'],
  ])('%s → %j', (source, expected) => {
    expect(textOfSource(source)).toBe(expected);
  });

  it('creates GUIDs in every format', () => {
    const guids = () => makeScope({ guids: ['0F8FAD5B-D9CB-469F-A165-70867728950E'] });
    expect(textOfSource('Guid.NewGuid()', guids())).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(textOfSource('Guid.NewGuid().ToString()', guids())).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(textOfSource('Guid.NewGuid().ToString("N")', guids())).toBe('0f8fad5bd9cb469fa16570867728950e');
    expect(textOfSource('Guid.NewGuid().ToString("B")', guids())).toBe(
      '{0f8fad5b-d9cb-469f-a165-70867728950e}',
    );
    expect(textOfSource('Guid.NewGuid().ToString("P")', guids())).toBe(
      '(0f8fad5b-d9cb-469f-a165-70867728950e)',
    );
    expect(textOfSource('"id-" + Guid.NewGuid()', guids())).toBe('id-0f8fad5b-d9cb-469f-a165-70867728950e');
  });

  it('gives each Guid.NewGuid() call its own value', () => {
    const scope = makeScope({
      guids: ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002'],
    });
    expect(textOfSource('Guid.NewGuid() == Guid.NewGuid()', scope)).toBe('False');
  });
});

describe('DateTime', () => {
  const now = new Date('2024-03-05T07:08:09.123Z');
  const scope = () => makeScope({ now });

  it.each([
    ['DateTime.UtcNow.ToString("yyyy-MM-dd")', '2024-03-05'],
    ['DateTime.UtcNow.AddDays(-1).ToString("yyyy-MM-dd")', '2024-03-04'],
    ['DateTime.UtcNow.AddDays(27).ToString("yyyy-MM-dd")', '2024-04-01'],
    ['DateTime.UtcNow.AddHours(20).ToString("s")', '2024-03-06T03:08:09'],
    ['DateTime.UtcNow.AddMinutes(-9).ToString("HH:mm")', '06:59'],
    ['DateTime.UtcNow.ToString("o")', '2024-03-05T07:08:09.1230000Z'],
    ['DateTime.UtcNow.ToString("u")', '2024-03-05 07:08:09Z'],
    ['DateTime.UtcNow.ToString()', '03/05/2024 07:08:09'],
    ['"at " + DateTime.UtcNow', 'at 03/05/2024 07:08:09'],
  ])('%s → %j', (source, expected) => {
    expect(textOfSource(source, scope())).toBe(expected);
  });

  it("renders DateTime.Now in the server's time zone", () => {
    const local = new Date(now.getTime() - now.getTimezoneOffset() * 60_000);
    const expected = local.toISOString().slice(0, 19);
    expect(textOfSource('DateTime.Now.ToString("s")', scope())).toBe(expected);
    const offset = -now.getTimezoneOffset();
    const sign = offset < 0 ? '-' : '+';
    const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
    const mm = String(Math.abs(offset) % 60).padStart(2, '0');
    expect(textOfSource('DateTime.Now.ToString("zzz")', scope())).toBe(`${sign}${hh}:${mm}`);
    expect(textOfSource('DateTime.Now.ToString("%K")', scope())).toBe(`${sign}${hh}:${mm}`);
  });

  it('reads the clock once per render', () => {
    let calls = 0;
    const counting = { ...scope(), now: () => new Date(now.getTime() + calls++ * 1000) };
    expect(textOfSource('DateTime.UtcNow == DateTime.UtcNow', counting)).toBe('False');
    // Rendering caches the instant per request; target.test.ts checks that path.
  });

  it('refuses dates outside years 1–9999', () => {
    const outcome = evaluateSource('DateTime.UtcNow.AddDays(3000000).ToString()', scope());
    expect(outcome).toMatchObject({
      ok: false,
      stage: 'render',
      message: expect.stringMatching(/outside the supported range/),
    });
  });

  it('fails at render time for an invalid dynamic format', () => {
    const outcome = evaluateSource(
      'DateTime.UtcNow.ToString(#api.QueryParameters.f)',
      makeScope({ queryString: 'f=q' }),
    );
    expect(outcome).toMatchObject({
      ok: false,
      stage: 'render',
      message: 'the format given to ToString is not a valid date format',
    });
  });
});

describe('references', () => {
  const scope = makeScope({
    basePath: '/orders',
    operationPath: '/items/42',
    pathParameters: { id: '42', 'order-id': 'o-1' },
    queryString: 'id=7&page-size=50&Mixed=m&dup=1&dup=2&plus=a+b',
  });

  it.each([
    ['#env.backend.url', 'https://backend.example.com'],
    ['#env.region', 'eu-west'],
    ['#env["my-var"]', 'dashed'],
    ['#env["backend"]["host"]', 'backend.example.com'],
    ['#api.BasePath', '/orders'],
    ['#api.OperationPath', '/items/42'],
    ['#api.OperationPath.id', '42'],
    ['#api.OperationPath["order-id"]', 'o-1'],
    ['#api.QueryParameters', 'id=7&page-size=50&Mixed=m&dup=1&dup=2&plus=a+b'],
    ['#api.QueryParameters.id', '7'],
    ['#api.QueryParameters["page-size"]', '50'],
    ['#api.QueryParameters.mixed', 'm'],
    ['#api.QueryParameters.dup', '1'],
    ['#api.QueryParameters.plus', 'a b'],
    ['#api.QueryParameters.absent', ''],
    ['#api.QueryParameters.absent ?? "none"', 'none'],
    ['(#api.QueryParameters).Length', '46'],
    ['#api.QueryParameters.id.Length', '1'],
    ['#env.backend.url.Length', '27'],
    ['#api.OperationPath.ToUpper()', '/ITEMS/42'],
  ])('%s → %j', (source, expected) => {
    expect(textOfSource(source, scope)).toBe(expected);
  });

  it('marks request data, escaped request data and configuration', () => {
    const taint = (source: string) => {
      const outcome = evaluateSource(source, scope);
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.value.taint;
    };
    expect(taint('#env.backend.url')).toBe(CONFIGURATION);
    expect(taint('#api.BasePath')).toBe(CONFIGURATION);
    expect(taint('#api.QueryParameters.id')).toBe(REQUEST_DATA);
    expect(taint('"x" + #api.OperationPath.id.Substring(0, 1)')).toBe(REQUEST_DATA);
    expect(taint('"a".Replace("a", #api.QueryParameters.id)')).toBe(REQUEST_DATA);
    expect(taint('Uri.EscapeDataString(#api.QueryParameters.id)')).toBe(ESCAPED_REQUEST_DATA);
    expect(taint('"x" + Uri.EscapeDataString(#api.QueryParameters.id)')).toBe(ESCAPED_REQUEST_DATA);
    expect(taint('Convert.ToBase64String(Encoding.UTF8.GetBytes(#api.QueryParameters.id))')).toBe(
      REQUEST_DATA,
    );
    expect(taint('#api.QueryParameters.id == "7" ? "a" : "b"')).toBe(CONFIGURATION);
  });

  it('propagates secrecy through values and conditions', () => {
    const secret = (source: string) => {
      const outcome = evaluateSource(source, scope);
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.value.secret;
    };
    expect(secret('#env.backend.apiKey')).toBe(true);
    expect(secret('#env.backend.user')).toBe(false);
    expect(secret('"Bearer " + #env.backend.apiKey')).toBe(true);
    expect(
      secret(
        'Convert.ToBase64String(Encoding.UTF8.GetBytes(#env.backend.user + ":" + #env.backend.password))',
      ),
    ).toBe(true);
    expect(secret('#env.backend.apiKey.Length')).toBe(true);
    expect(secret('#env.backend.apiKey == "x" ? "a" : "b"')).toBe(true);
    expect(secret('#env.backend.user == "x" ? "a" : "b"')).toBe(false);
  });

  it('names a missing environment value without giving any value', () => {
    const outcome = evaluateSource('#env.backend.url', makeScope({ env: {} }));
    expect(outcome).toEqual({
      ok: false,
      stage: 'render',
      kind: 'missing-reference',
      message: '#env.backend.url has no value in this environment',
    });
  });
});
