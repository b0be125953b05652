import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { copySyntaxTree, type SyntaxTree } from './syntax-tree.js';

/** The bash grammar, loaded: parses command lines into syntax trees. */
export interface BashGrammar {
  /**
   * Parses `text` with tree-sitter-bash and copies the tree out of WebAssembly memory
   * (at most `MAX_TREE_DEPTH` levels deep). Linear in the length of `text`.
   */
  parse(text: string): SyntaxTree;
}

let loading: Promise<BashGrammar> | undefined;
let loaded: BashGrammar | undefined;

const load = async (): Promise<BashGrammar> => {
  const require = createRequire(import.meta.url);
  await Parser.init();
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const parser = new Parser();
  parser.setLanguage(language);
  const grammar: BashGrammar = {
    parse(text) {
      // One parser serves every call: parsing is synchronous, so calls never interleave.
      parser.reset();
      const tree = parser.parse(text);
      if (tree === null) throw new Error('tree-sitter-bash returned no tree');
      return copySyntaxTree(tree, text);
    },
  };
  loaded = grammar;
  return grammar;
};

/**
 * Loads tree-sitter-bash (WebAssembly, through web-tree-sitter) once per process; later
 * calls return the same promise. A failed load is not cached, so a later call tries again.
 * `run_command` starts it when the tool is created, so that its first call rarely waits.
 */
export function loadBashGrammar(): Promise<BashGrammar> {
  if (loading === undefined) {
    loading = load();
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** The grammar when {@link loadBashGrammar} has finished, for synchronous use; else undefined. */
export function loadedBashGrammar(): BashGrammar | undefined {
  return loaded;
}
