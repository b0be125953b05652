import { HintgateError } from '../errors/index.js';
import { ownValue } from './own-value.js';

/** Arguments of a call, after validation. */
export type ToolArguments = Record<string, unknown>;

/**
 * Resource keys of a call: templates over its arguments (`"file:{path}"`, one key per
 * template, or one per element when the argument is an array), or a function of the
 * arguments returning keys. Keys are hierarchical on `/`.
 */
export type ResourcesOption<Args = ToolArguments> =
  | readonly string[]
  | ((args: Args) => string | readonly string[] | undefined);

/** Largest number of keys one template may expand to before it falls back to its prefix. */
const MAX_EXPANSION = 256;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const ARGUMENT_NAME = /^[A-Za-z_$][\w$-]*$/;

type Part = { readonly literal: string } | { readonly argument: string };

const parseTemplate = (template: string, known: ReadonlySet<string>, where: string): Part[] => {
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!ARGUMENT_NAME.test(name)) {
      throw new HintgateError(
        'invalid_resource_template',
        `${where}: resource template "${template}" has a placeholder "{${name}}" that is not an argument name. Write "{argumentName}", for example "file:{path}".`,
      );
    }
    if (!known.has(name)) {
      const list = [...known].sort().join(', ') || 'none';
      throw new HintgateError(
        'invalid_resource_template',
        `${where}: resource template "${template}" names argument "${name}", which the input schema does not declare (its properties: ${list}). Use one of those names or add "${name}" to the schema.`,
      );
    }
    parts.push({ literal: template.slice(last, match.index) }, { argument: name });
    last = match.index + match[0].length;
  }
  const rest = template.slice(last);
  if (
    rest.includes('{') ||
    rest.includes('}') ||
    parts.some((p) => 'literal' in p && /[{}]/.test(p.literal))
  ) {
    throw new HintgateError(
      'invalid_resource_template',
      `${where}: resource template "${template}" has an unbalanced brace. Write placeholders as "{argumentName}".`,
    );
  }
  parts.push({ literal: rest });
  return parts;
};

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

const expand = (parts: readonly Part[], args: ToolArguments): string[] => {
  // The common case, every placeholder a scalar argument, is one key built as one string;
  // the first placeholder that is not starts the general case from there.
  let key = '';
  let at = 0;
  for (; at < parts.length; at += 1) {
    const part = parts[at] as Part;
    if ('literal' in part) key += part.literal;
    else {
      const value = ownValue(args, part.argument);
      if (!isScalar(value)) break;
      key += String(value);
    }
  }
  if (at === parts.length) return [key];
  let keys = [key];
  for (const part of parts.slice(at)) {
    if ('literal' in part) {
      keys = keys.map((key) => key + part.literal);
      continue;
    }
    const value = ownValue(args, part.argument);
    const values = Array.isArray(value) ? value : [value];
    const scalars = values.filter(isScalar);
    // An absent or non-scalar argument, or too many combinations: the key stops before the
    // placeholder, which locks the whole subtree and so stays on the safe side.
    if (
      scalars.length !== values.length ||
      (values.length === 0 && !Array.isArray(value)) ||
      keys.length * scalars.length > MAX_EXPANSION
    ) {
      return keys;
    }
    if (scalars.length === 0) return [];
    keys = keys.flatMap((key) => scalars.map((scalar) => key + String(scalar)));
  }
  return keys;
};

/**
 * Compiles the `resources` option of a tool into a function from arguments to keys.
 * `properties` are the argument names the input schema declares.
 *
 * @throws HintgateError `invalid_resource_template` when a template names an argument the
 * schema lacks or is malformed.
 */
export function compileResources<Args>(
  option: ResourcesOption<Args>,
  properties: ReadonlySet<string>,
  where: string,
): (args: Args) => string[] {
  if (typeof option === 'function') {
    return (args) => {
      const keys = option(args);
      if (keys === undefined) return [];
      return typeof keys === 'string' ? [keys] : [...keys];
    };
  }
  if (!Array.isArray(option) || option.some((t) => typeof t !== 'string' || t.length === 0)) {
    throw new HintgateError(
      'invalid_resource_template',
      `${where}: resources must be a list of non-empty template strings such as "file:{path}", or a function of the arguments.`,
    );
  }
  const templates = option.map((template) => parseTemplate(template, properties, where));
  // One template expanding to one key (the common case) needs no set to dedupe it.
  const [only] = templates;
  if (templates.length === 1 && only !== undefined) {
    return (args) => {
      const keys = expand(only, args as ToolArguments);
      return keys.length < 2 ? keys : [...new Set(keys)];
    };
  }
  return (args) => {
    const keys = new Set<string>();
    for (const parts of templates)
      for (const key of expand(parts, args as ToolArguments)) keys.add(key);
    return [...keys];
  };
}
