/**
 * The parts of the tools layer a command checks its options with before it loads the rest
 * of it (the workspace tools, their grammars and search index): `hintgate serve` and
 * `hintgate gateway` refuse a bad `--fetch-allow` without loading them.
 */
export { createFetchAllowList, type FetchAllowList } from './fetch-allow-list.js';
