/** The syntax tree produced by the parser, before names and types are resolved by the binder. */

export type BinaryOperator = '+' | '==' | '!=' | '<' | '>' | '<=' | '>=' | '&&' | '||' | '??';

interface NodeBase {
  start: number;
  end: number;
  /** Height of the subtree; bounded so that binding and evaluation recursion stays shallow. */
  depth: number;
}

export type SyntaxNode =
  | (NodeBase & { type: 'string'; value: string })
  | (NodeBase & { type: 'integer'; value: number })
  | (NodeBase & { type: 'identifier'; name: string })
  | (NodeBase & { type: 'reference'; root: string })
  /** Parentheses are kept so that `(#api.QueryParameters).Length` ends the reference before `.Length`. */
  | (NodeBase & { type: 'group'; inner: SyntaxNode })
  | (NodeBase & { type: 'member'; target: SyntaxNode; name: string; nameStart: number })
  | (NodeBase & { type: 'index'; target: SyntaxNode; key: string; keyStart: number; keyEnd: number })
  | (NodeBase & { type: 'call'; callee: SyntaxNode; args: SyntaxNode[] })
  | (NodeBase & { type: 'unary'; operator: '!' | '-'; operand: SyntaxNode })
  | (NodeBase & {
      type: 'binary';
      operator: BinaryOperator;
      operatorStart: number;
      left: SyntaxNode;
      right: SyntaxNode;
    })
  | (NodeBase & { type: 'conditional'; test: SyntaxNode; whenTrue: SyntaxNode; whenFalse: SyntaxNode });

/** A node's own fields; the parser adds `depth`. */
export type SyntaxFields = SyntaxNode extends infer Node
  ? Node extends unknown
    ? Omit<Node, 'depth'>
    : never
  : never;
