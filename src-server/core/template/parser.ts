import { MAX_EXPRESSION_DEPTH } from './limits.js';
import type { SourceError } from './source-error.js';
import { blockHelperMessage } from './supported.js';
import type { BinaryOperator, SyntaxFields, SyntaxNode } from './syntax.js';
import type { Punctuator, Token } from './tokenizer.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/**
 * Pratt parser of one span's tokens. Precedence, lowest first, as in C#:
 * `?:` (right), `??` (right), `||`, `&&`, `== !=`, `< > <= >=`, `+`, unary `! -`, postfix `. () []`.
 */

export type ParseResult = { ok: true; node: SyntaxNode } | { ok: false; error: SourceError };

const INT32_MAX = 2_147_483_647;
const CONDITIONAL_POWER = 1;
const UNARY_POWER = 8;

const INFIX: ReadonlyMap<Punctuator, { power: number; rightAssociative: boolean }> = new Map([
  ['??', { power: 2, rightAssociative: true }],
  ['||', { power: 3, rightAssociative: false }],
  ['&&', { power: 4, rightAssociative: false }],
  ['==', { power: 5, rightAssociative: false }],
  ['!=', { power: 5, rightAssociative: false }],
  ['<', { power: 6, rightAssociative: false }],
  ['>', { power: 6, rightAssociative: false }],
  ['<=', { power: 6, rightAssociative: false }],
  ['>=', { power: 6, rightAssociative: false }],
  ['+', { power: 7, rightAssociative: false }],
]);

class ParseFailure extends GatehouseError {
  constructor(readonly detail: SourceError) {
    super(ErrorCode.GH_ERR_TEMPLATE_SYNTAX, detail.message);
  }
}

export function parseExpression(tokens: readonly Token[]): ParseResult {
  const parser = new Parser(tokens);
  try {
    return { ok: true, node: parser.parseWhole() };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, error: error.detail };
    throw error;
  }
}

class Parser {
  private position = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseWhole(): SyntaxNode {
    const first = this.peek();
    if (first.kind === 'end') throw this.failAt(first, 'empty expression inside {{ }}');
    const blockHelper = first.kind === 'reference' ? blockHelperMessage(first.root) : undefined;
    if (blockHelper !== undefined) throw this.failAt(first, blockHelper);
    const node = this.expression(0, 0);
    const rest = this.peek();
    if (rest.kind !== 'end') {
      throw this.failAt(
        rest,
        `unexpected ${describe(rest)}; expected an operator or the end of the expression`,
      );
    }
    return node;
  }

  private expression(minimumPower: number, nesting: number): SyntaxNode {
    if (nesting > MAX_EXPRESSION_DEPTH) {
      throw this.failAt(
        this.peek(),
        `the expression is nested too deeply (at most ${MAX_EXPRESSION_DEPTH} levels)`,
      );
    }
    let left = this.prefix(nesting);
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'punctuator') break;
      if (token.value === '?') {
        if (CONDITIONAL_POWER < minimumPower) break;
        this.advance();
        const whenTrue = this.expression(0, nesting + 1);
        this.expectPunctuator(':', "expected ':' of the conditional operator '?:'");
        const whenFalse = this.expression(CONDITIONAL_POWER, nesting + 1);
        left = this.node(
          { type: 'conditional', test: left, whenTrue, whenFalse, start: left.start, end: whenFalse.end },
          [left, whenTrue, whenFalse],
        );
        continue;
      }
      if (token.value === '-') {
        throw this.failAt(
          token,
          "subtraction is not supported; '-' is only a sign (e.g. AddDays(-1)). Names containing '-' are written with brackets: #api.QueryParameters[\"page-size\"]",
        );
      }
      const infix = INFIX.get(token.value);
      if (infix === undefined || infix.power < minimumPower) break;
      this.advance();
      const right = this.expression(infix.rightAssociative ? infix.power : infix.power + 1, nesting + 1);
      left = this.node(
        {
          type: 'binary',
          operator: token.value as BinaryOperator,
          operatorStart: token.start,
          left,
          right,
          start: left.start,
          end: right.end,
        },
        [left, right],
      );
    }
    return left;
  }

  private prefix(nesting: number): SyntaxNode {
    const token = this.advance();
    switch (token.kind) {
      case 'punctuator':
        if (token.value === '!' || token.value === '-') {
          const operand = this.expression(UNARY_POWER, nesting + 1);
          if (token.value === '-' && operand.type === 'integer') {
            const value = operand.value === 0 ? 0 : -operand.value;
            if (value > INT32_MAX) throw this.failAt(token, 'this number is too large; integers are 32-bit');
            return { ...operand, value, start: token.start };
          }
          return this.node(
            { type: 'unary', operator: token.value, operand, start: token.start, end: operand.end },
            [operand],
          );
        }
        if (token.value === '(') {
          const inner = this.expression(0, nesting + 1);
          const close = this.expectPunctuator(')', "expected ')'");
          return this.postfix(
            this.node({ type: 'group', inner, start: token.start, end: close.end }, [inner]),
            nesting,
          );
        }
        throw this.failAt(token, `unexpected ${describe(token)}; expected a value`);
      case 'integer': {
        const negated = this.previousIsUnaryMinus();
        if (token.value > INT32_MAX && !(negated && token.value === INT32_MAX + 1)) {
          throw this.failAt(token, 'this number is too large; integers are 32-bit (at most 2147483647)');
        }
        return this.postfix(
          this.leaf({ type: 'integer', value: token.value, start: token.start, end: token.end }),
          nesting,
        );
      }
      case 'string':
        return this.postfix(
          this.leaf({ type: 'string', value: token.value, start: token.start, end: token.end }),
          nesting,
        );
      case 'identifier':
        return this.postfix(
          this.leaf({ type: 'identifier', name: token.name, start: token.start, end: token.end }),
          nesting,
        );
      case 'reference':
        return this.postfix(
          this.leaf({ type: 'reference', root: token.root, start: token.start, end: token.end }),
          nesting,
        );
      case 'end':
        throw this.failAt(token, 'the expression ends too early; expected a value');
    }
  }

  private postfix(initial: SyntaxNode, nesting: number): SyntaxNode {
    let node = initial;
    for (;;) {
      const token = this.peek();
      if (token.kind !== 'punctuator') return node;
      if (token.value === '.') {
        this.advance();
        const name = this.advance();
        if (name.kind !== 'identifier') throw this.failAt(name, "expected a member name after '.'");
        node = this.node(
          {
            type: 'member',
            target: node,
            name: name.name,
            nameStart: name.start,
            start: node.start,
            end: name.end,
          },
          [node],
        );
      } else if (token.value === '(') {
        this.advance();
        if (node.type !== 'member' && node.type !== 'identifier') {
          throw this.failAt(token, 'only methods and functions can be called');
        }
        const args: SyntaxNode[] = [];
        if (!this.isPunctuator(')')) {
          for (;;) {
            args.push(this.expression(0, nesting + 1));
            if (!this.isPunctuator(',')) break;
            this.advance();
          }
        }
        const close = this.expectPunctuator(')', "expected ',' or ')' in the argument list");
        node = this.node({ type: 'call', callee: node, args, start: node.start, end: close.end }, [
          node,
          ...args,
        ]);
      } else if (token.value === '[') {
        this.advance();
        const key = this.advance();
        if (key.kind !== 'string') {
          throw this.failAt(
            key,
            'only a quoted name is allowed inside [ ], e.g. #api.QueryParameters["page-size"]',
          );
        }
        const close = this.expectPunctuator(']', "expected ']'");
        node = this.node(
          {
            type: 'index',
            target: node,
            key: key.value,
            keyStart: key.start,
            keyEnd: key.end,
            start: node.start,
            end: close.end,
          },
          [node],
        );
      } else {
        return node;
      }
    }
  }

  private leaf<T extends SyntaxFields>(fields: T): T & { depth: number } {
    return { ...fields, depth: 1 };
  }

  private node(fields: SyntaxFields, children: readonly SyntaxNode[]): SyntaxNode {
    let depth = 0;
    for (const child of children) depth = Math.max(depth, child.depth);
    if (depth + 1 > MAX_EXPRESSION_DEPTH) {
      throw new ParseFailure({
        position: fields.start,
        length: Math.max(1, fields.end - fields.start),
        message: `the expression is nested too deeply (at most ${MAX_EXPRESSION_DEPTH} levels)`,
      });
    }
    return { ...fields, depth: depth + 1 };
  }

  private previousIsUnaryMinus(): boolean {
    const previous = this.tokens[this.position - 2];
    return previous?.kind === 'punctuator' && previous.value === '-';
  }

  private peek(): Token {
    return this.tokens[this.position] ?? (this.tokens[this.tokens.length - 1] as Token);
  }

  private advance(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.position++;
    return token;
  }

  private isPunctuator(value: Punctuator): boolean {
    const token = this.peek();
    return token.kind === 'punctuator' && token.value === value;
  }

  private expectPunctuator(value: Punctuator, message: string): Token {
    const token = this.peek();
    if (token.kind !== 'punctuator' || token.value !== value) {
      throw this.failAt(token, `${message}, found ${describe(token)}`);
    }
    return this.advance();
  }

  private failAt(token: Token, message: string): ParseFailure {
    return new ParseFailure({ position: token.start, length: Math.max(1, token.end - token.start), message });
  }
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'identifier':
      return `'${token.name}'`;
    case 'reference':
      return `'#${token.root}'`;
    case 'string':
      return 'a string literal';
    case 'integer':
      return 'a number';
    case 'punctuator':
      return `'${token.value}'`;
    case 'end':
      return 'the end of the expression';
  }
}
