import { describe, expect, it } from 'vitest';
import { compileExpression } from './pipeline.js';
import { allOperationsContext } from './scope-fixtures.js';

/** Everything outside the language is refused at compile time, with where and why. */

function refusal(source: string, context = undefined as Parameters<typeof compileExpression>[1]) {
  const outcome = compileExpression(source, context);
  if (outcome.ok) throw new Error(`expected ${source} to be refused`);
  return outcome;
}

describe('tokenizer refusals', () => {
  it.each([
    ['1 * 2', 2, /'\*' is not supported/],
    ['"a" / "b"', 4, /'\/' is not supported/],
    ['1 % 2', 2, /'%' is not supported/],
    ['x = 1', 2, /assignment is not supported; use '=='/],
    ['a & b', 2, /'&' is not supported; use '&&'/],
    ['a | b', 2, /use '\|\|'/],
    ['a ^ b', 2, /'\^' is not supported/],
    ['~a', 0, /'~' is not supported/],
    ['x => x', 2, /lambdas/],
    ['a?.b', 1, /null-conditional/],
    ['1 << 2', 2, /shift/],
    ['$"x{1}"', 0, /interpolated strings/],
    ['{ }', 0, /'\{' is not supported/],
    ['a; b', 1, /statements are not supported/],
    ['1.5', 0, /decimal numbers are not supported/],
    ['0x1F', 0, /unsupported number format/],
    ['10L', 0, /unsupported number format/],
    ['12345678901', 0, /too large/],
    ['"open', 0, /not closed/],
    ['@"open', 0, /not closed/],
    ['"\\q"', 1, /unrecognized escape sequence '\\q'/],
    ['"\\u12"', 1, /invalid \\u escape/],
    ["''", 0, /empty character literal/],
    ["'ab'", 0, /exactly one character/],
    ['# env', 0, /'#' must start a reference/],
    ['@x', 0, /verbatim string/],
    ['`x`', 0, /unexpected character '`'/],
    ['"a" + ü', 6, /unexpected character U\+00FC/],
    ['/if', 0, /closing blocks such as \{\{\/if\}\} are not supported/],
  ])('%s is refused at %i', (source, position, message) => {
    const outcome = refusal(source);
    expect(outcome.position).toBe(position);
    expect(outcome.message).toMatch(message);
  });
});

describe('parser refusals', () => {
  it.each([
    ['', 0, /empty expression/],
    ['1 - 2', 2, /subtraction is not supported.*\["page-size"\]/],
    ['#api.QueryParameters.page-size', 25, /subtraction is not supported/],
    ['(1', 2, /expected '\)'/],
    ['1 2', 2, /unexpected a number; expected an operator/],
    ['a ? b', 5, /expected ':'/],
    ['"a".', 4, /expected a member name/],
    ['"a".ToUpper(', 12, /the expression ends too early|expected a value/],
    ['"a".Substring(1,)', 16, /expected a value/],
    ['#api.QueryParameters[name]', 21, /only a quoted name is allowed inside \[ \]/],
    ['(1)(2)', 3, /only methods and functions can be called/],
    ['2147483648', 0, /too large/],
    ['+1', 0, /expected a value/],
    ['1 +', 3, /ends too early/],
  ])('%j is refused at %i', (source, position, message) => {
    const outcome = refusal(source);
    expect(outcome.message).toMatch(message);
    expect(outcome.position).toBe(position);
  });

  it('bounds the nesting depth', () => {
    expect(refusal(`${'('.repeat(60)}1${')'.repeat(60)}`).message).toMatch(/nested too deeply/);
    expect(refusal(`"a"${'.Trim()'.repeat(60)}`).message).toMatch(/nested too deeply/);
    expect(refusal(Array.from({ length: 60 }, () => '"a"').join(' + ')).message).toMatch(/nested too deeply/);
    expect(refusal(`${'!'.repeat(60)}true`).message).toMatch(/nested too deeply/);
    expect(compileExpression(`${'('.repeat(20)}1${')'.repeat(20)}`).ok).toBe(true);
  });
});

describe('binder refusals', () => {
  it.each([
    ['foo', 0, /unknown name 'foo'\. Supported inside \{\{ \}\}/],
    ['env.backend.url', 0, /references start with '#'/],
    ['DateTime', 0, /'DateTime' is a type/],
    ['DateTime.Today', 9, /'DateTime.Today' is not supported\. Supported: DateTime.UtcNow/],
    ['DateTime.Parse("x")', 9, /'DateTime.Parse\(…\)' is not supported/],
    ['Math.Max(1, 2)', 0, /unknown name 'Math'/],
    ['System.IO.File.ReadAllText("x")', 0, /unknown name 'System'/],
    ['Guid.NewGuid', 5, /'Guid.NewGuid' is not supported/],
    ['Encoding.ASCII.GetBytes("x")', 0, /only Encoding.UTF8.GetBytes/],
    ['Encoding.UTF8', 0, /only usable as Encoding.UTF8.GetBytes/],
    ['Convert.ToBase64String("x")', 23, /argument 1 of .* must be a byte array, not text/],
    ['Convert.FromBase64String("x")', 8, /not supported/],
    ['ToUpper()', 0, /unknown function 'ToUpper'\. ToUpper\(\) is called on a value/],
    ['"a".Foo()', 4, /'Foo\(\)' is not supported on text\. Members of text: ToUpper\(\)/],
    ['"a".ToUpper', 4, /'ToUpper' is a method; call it/],
    ['"a".Length()', 4, /'Length' is a property/],
    ['"a".constructor', 4, /'constructor' is not a property of text/],
    ['"a".__proto__', 4, /'__proto__' is not a property of text/],
    ['"a".Substring("1")', 14, /argument 1 of Substring\(start\[, length\]\) must be an integer, not text/],
    ['"a".Substring()', 0, /wrong number of arguments; the form is Substring/],
    ['"a".Replace("a")', 0, /wrong number of arguments/],
    ['1.ToUpper()', 2, /not supported on an integer/],
    ['1 + true', 2, /'\+' joins text or adds integers/],
    ['1 + null', 2, /'\+' joins text or adds integers/],
    ['1 == "1"', 2, /compares two values of the same type/],
    ['"a" < "b"', 4, /compares two integers or two DateTimes/],
    ['1 && true', 0, /'&&' needs true\/false values, not an integer/],
    ['!"a"', 1, /'!' needs a true\/false value/],
    ['-"a"', 1, /the sign '-' needs an integer/],
    ['1 ? "a" : "b"', 0, /condition of '\?:' must be a true\/false value/],
    ['true ? "a" : 1', 0, /both results of '\?:' must have the same type/],
    ['1 ?? 2', 2, /'\?\?' gives a default for text/],
    ['DateTime.UtcNow.ToString("q")', 25, /invalid format: 'q' is not a standard date format/],
    ['DateTime.UtcNow.ToString("ffffffffff")', 25, /at most 7/],
    ['Guid.NewGuid().ToString("X")', 24, /a Guid format is/],
    ['DateTime.UtcNow.AddDays("1")', 24, /must be an integer/],
    ['DateTime.UtcNow.AddSeconds(1)', 16, /'AddSeconds\(\)' is not supported on a DateTime/],
    ['DateTime.UtcNow.Length', 16, /not a property of a DateTime/],
    ['"x"["y"]', 0, /\[ \] can only follow a reference/],
    ['null.ToUpper()', 5, /not supported on null/],
    ['Encoding.UTF8.GetBytes("x").ToString()', 0, /ToString\(\) is not supported on a byte array/],
  ])('%s is refused at %i', (source, position, message) => {
    const outcome = refusal(source);
    expect(outcome.message).toMatch(message);
    expect(outcome.position).toBe(position);
  });
});

describe('reference validation', () => {
  it.each([
    ['#foo', 0, /unknown reference '#foo'; references start with #env or #api/],
    ['#Env.x', 0, /did you mean #env\?/],
    ['#if x', 0, /block helpers such as \{\{#if\}\} are not supported/],
    ['#each', 0, /block helpers/],
    ['#env', 0, /'#env' needs a variable name/],
    [
      '#env.nope',
      5,
      /unknown environment variable 'nope'; known environment variables: backend, region, my-var, empty/,
    ],
    ['#env.Backend.url', 5, /did you mean 'backend'\?/],
    [
      '#env.backend',
      0,
      /#env.backend is a group of values; name one of its members: #env.backend.<member>; known members: url/,
    ],
    ['#env.backend.nope', 13, /#env.backend has no member 'nope'/],
    ['#env.empty.x', 11, /there are no members/],
    ['#env.region.extra', 12, /'extra' is not a property of text/],
    ['#env.backend.url.Foo', 17, /'Foo' is not a property of text/],
    ['#api', 0, /'#api' needs a field/],
    ['#api.basePath', 5, /did you mean #api.BasePath\?/],
    ['#api.Headers.x', 5, /unknown reference '#api.Headers'/],
    ['#api["BasePath"]', 5, /unknown reference/],
    ['#api.BasePath.x', 14, /'x' is not a property of text/],
    ['#api.OperationPath.nope', 19, /unknown path parameter 'nope'; known path parameters: id, order-id/],
    ['#api.OperationPath.ID', 19, /did you mean 'id'\?/],
    ['#api.QueryParameters.id["x"]', 24, /\[ \] can only name/],
  ])('%s is refused at %i', (source, position, message) => {
    const outcome = refusal(source);
    expect(outcome.message).toMatch(message);
    expect(outcome.position).toBe(position);
  });

  it('explains that All operations has no path parameters', () => {
    const outcome = refusal('#api.OperationPath.id', allOperationsContext);
    expect(outcome.message).toMatch(
      /'All operations' has no path parameters; #api.OperationPath is the remainder/,
    );
    expect(compileExpression('#api.OperationPath', allOperationsContext).ok).toBe(true);
  });

  it('explains an operation without path parameters', () => {
    const outcome = refusal('#api.OperationPath.id', { ...allOperationsContext, scope: 'operation' });
    expect(outcome.message).toMatch(/this operation has no path parameters/);
  });

  it('accepts any query parameter name, dotted, dashed or bracketed', () => {
    for (const source of [
      '#api.QueryParameters.anything',
      '#api.QueryParameters["page-size"]',
      '#api.QueryParameters["filter.name"]',
      '#api.QueryParameters["ids[]"]',
      '#api.QueryParameters.Length',
      '#api.QueryParameters.ToUpper()',
    ]) {
      expect(compileExpression(source).ok, source).toBe(true);
    }
  });

  it('does not treat environment names as JavaScript properties', () => {
    expect(refusal('#env.constructor').message).toMatch(/unknown environment variable 'constructor'/);
    expect(refusal('#env.__proto__').message).toMatch(/unknown environment variable '__proto__'/);
    expect(refusal('#env.backend.constructor').message).toMatch(/has no member 'constructor'/);
    expect(refusal('#api.OperationPath.__proto__').message).toMatch(/unknown path parameter/);
  });
});
