/**
 * The layering rules of hintgate, checked by `npm run lint` (dependency-cruiser).
 *
 * Layers are the folders of `src/`, listed bottom-up: a layer may import the layers listed
 * before it and never one listed after it. Layers in one inner array are peers and do not
 * import each other. Another layer is reached only through its `index.ts`, or its `node.ts`
 * for its Node-only part (files, processes, sockets), its `early.ts` for what a process
 * loads before the rest of the layer, its `pin.ts` for pins and lock files alone (what
 * `hintgate pin` loads of it), or its `serve.ts` for what `hintgate serve` loads of it.
 * Tests and their fixtures are exempt: a test may drive a layer with real parts of the
 * layers above it.
 * docs/architecture.md describes each layer.
 */
const LAYERS = [
  'errors',
  'tool',
  'config-problems',
  'fs',
  'schedule',
  'registry',
  'policy',
  'audit',
  'prompt',
  'runtime',
  'terminal',
  'telemetry',
  'discovery',
  'tools',
  'mcp',
  'state',
  'check',
  'gateway',
  'console',
  'adapters/shared',
  ['adapters/ai-sdk', 'adapters/langchain', 'adapters/openai-agents'],
  // What tests share (hintgate/testing): it drives any layer below.
  'testing',
  'cli',
];

const TESTS = '(\\.test\\.ts|\\.test-helpers\\.ts)$|/fixtures/';
const folder = (layer) => `^src/${layer}/`;
const anyOf = (layers) => `(${layers.map(folder).join('|')})`;

const groups = LAYERS.map((entry) => (Array.isArray(entry) ? entry : [entry]));
const upward = groups.flatMap((group, rank) =>
  group.map((layer) => {
    const forbidden = [...groups.slice(rank + 1).flat(), ...group.filter((peer) => peer !== layer)];
    return {
      name: `layer-order:${layer}`,
      comment: `${layer} may import only the layers listed before it in .dependency-cruiser.cjs`,
      severity: 'error',
      from: { path: folder(layer), pathNot: TESTS },
      to: { path: anyOf(forbidden) },
    };
  }),
);

module.exports = {
  forbidden: [
    ...upward.filter((rule) => rule.to.path !== '()'),
    {
      name: 'unknown-layer',
      comment: 'every folder of src/ is a layer listed in .dependency-cruiser.cjs',
      severity: 'error',
      from: {},
      to: {
        path: '^src/[^/]+/',
        pathNot: [
          `^src/(${groups
            .flat()
            .filter((layer) => !layer.includes('/'))
            .join('|')})/`,
          '^src/adapters/',
        ],
      },
    },
    {
      name: 'through-index',
      comment:
        'another layer is imported through its index.ts (or node.ts for its Node-only part, early.ts for what a process loads before the rest of the layer, pin.ts for what `hintgate pin` loads of it, or serve.ts for what `hintgate serve` loads of it); add the name there',
      severity: 'error',
      from: { path: '^src/(adapters/[^/]+|[^/]+)/', pathNot: TESTS },
      to: {
        path: '^src/',
        pathNot: [
          '^src/$1/',
          '^src/(adapters/[^/]+|[^/]+)/(index|node|early|pin|serve)\\.ts$',
          '^node_modules/',
        ],
      },
    },
    {
      name: 'entry-through-index',
      comment: 'an entry point (src/*.ts) re-exports from layer index.ts or node.ts files only',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/.+/', pathNot: '^src/(adapters/[^/]+|[^/]+)/(index|node)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
