import type { Tree } from 'web-tree-sitter';

/**
 * A node of a bash syntax tree copied out of WebAssembly memory: reading a copied node is a
 * field access, where each property of a web-tree-sitter `Node` is a call into the module.
 */
export class SyntaxNode {
  /** Its children, named and anonymous, in order. */
  readonly children: SyntaxNode[] = [];

  constructor(
    private readonly source: string,
    /** The grammar's name for it: `command`, `word`, `ERROR`, or the token (`;`, `$(`). */
    readonly type: string,
    /** False for anonymous tokens (operators, keywords, quotes). */
    readonly isNamed: boolean,
    /** The field its parent gives it (`name`, `value`, `body`), if any. */
    readonly fieldName: string | null,
    /** Where it starts and ends in the source, in UTF-16 code units. */
    readonly startIndex: number,
    readonly endIndex: number,
    /** True for a token the parser inserted because it was missing. */
    readonly isMissing: boolean,
  ) {}

  /** Its text in the source. */
  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  /** True for a node the parser could not fit in the grammar. */
  get isError(): boolean {
    return this.type === 'ERROR';
  }

  /** Its named children, in order. */
  get namedChildren(): SyntaxNode[] {
    return this.children.filter((child) => child.isNamed);
  }

  /** The child at `index`, or null. */
  child(index: number): SyntaxNode | null {
    return this.children[index] ?? null;
  }

  /** The named child at `index`, or null. */
  namedChild(index: number): SyntaxNode | null {
    return this.namedChildren[index] ?? null;
  }

  /** The first child in the field `name`, or null. */
  childForFieldName(name: string): SyntaxNode | null {
    return this.children.find((child) => child.fieldName === name) ?? null;
  }
}

/** A copied syntax tree. */
export interface SyntaxTree {
  readonly root: SyntaxNode;
  /** True when the parser reported a syntax error or a missing token anywhere. */
  readonly hasError: boolean;
  /** True when nodes nested deeper than the copy goes were left out. */
  readonly truncated: boolean;
}

/** How deep a tree is copied; a deeper line is reported as not understood. */
export const MAX_TREE_DEPTH = 4096;

/**
 * Copies `tree` (parsed from `source`) into {@link SyntaxNode}s with one walk of a tree
 * cursor, at most {@link MAX_TREE_DEPTH} levels deep, and frees the WebAssembly tree.
 */
export function copySyntaxTree(tree: Tree, source: string): SyntaxTree {
  const cursor = tree.walk();
  try {
    const make = (): SyntaxNode =>
      new SyntaxNode(
        source,
        cursor.nodeType,
        cursor.nodeIsNamed,
        cursor.currentFieldName,
        cursor.startIndex,
        cursor.endIndex,
        cursor.nodeIsMissing,
      );
    const root = make();
    const path: SyntaxNode[] = [root];
    let truncated = false;
    for (;;) {
      const parent = path.at(-1) as SyntaxNode;
      if (path.length < MAX_TREE_DEPTH && cursor.gotoFirstChild()) {
        const node = make();
        parent.children.push(node);
        path.push(node);
        continue;
      }
      if (path.length >= MAX_TREE_DEPTH && cursor.gotoFirstChild()) {
        truncated = true;
        cursor.gotoParent();
      }
      for (;;) {
        if (path.length === 1) return { root, hasError: tree.rootNode.hasError, truncated };
        path.pop();
        if (cursor.gotoNextSibling()) {
          const node = make();
          (path.at(-1) as SyntaxNode).children.push(node);
          path.push(node);
          break;
        }
        cursor.gotoParent();
      }
    }
  } finally {
    cursor.delete();
    tree.delete();
  }
}
