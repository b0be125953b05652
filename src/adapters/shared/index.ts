// What the framework adapters share. Internal: not a subpath of the package.

export { callResultText } from './call-result-text.js';
