import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DESTRUCTIVE, defineTool, isTool, READ_ONLY, type Tool, WRITE } from '../tool/index.js';

/** What a tool module's default-exported function is given: hintgate's tool-making API. */
export interface ToolModuleApi {
  readonly defineTool: typeof defineTool;
  readonly READ_ONLY: typeof READ_ONLY;
  readonly WRITE: typeof WRITE;
  readonly DESTRUCTIVE: typeof DESTRUCTIVE;
}

/** What a module's `init` and `dispose` are given. */
export interface ToolModuleContext {
  /** Absolute path of the module file. */
  readonly file: string;
  /** Layer of its folder. */
  readonly layer: 'global' | 'project';
}

/** A tool module that passed validation. */
export interface LoadedToolModule {
  /** Absolute path of the module file. */
  readonly file: string;
  /** Its tools, in the order it exports them. */
  readonly tools: readonly Tool[];
  /** Its `init` export, if any. */
  readonly init?: (context: ToolModuleContext) => unknown;
  /** Its `dispose` export, if any. */
  readonly dispose?: (context: ToolModuleContext) => unknown;
}

/** A module left out, and why, in words that name the file and the fix. */
export interface ToolModuleProblem {
  /** Absolute path of the module file. */
  readonly file: string;
  /** What is wrong and what to do. */
  readonly message: string;
}

const API: ToolModuleApi = Object.freeze({ defineTool, READ_ONLY, WRITE, DESTRUCTIVE });

const isTypeScript = (file: string): boolean => file.endsWith('.ts') || file.endsWith('.mts');

let tsxRegistered: Promise<boolean> | undefined;

/**
 * Registers tsx's ESM loader (`tsx/esm/api`) once, found from the working directory first
 * and then from hintgate's own dependencies: TypeScript modules then load like JavaScript.
 * Resolves to false when tsx is not installed.
 */
function registerTsx(from: string): Promise<boolean> {
  tsxRegistered ??= (async () => {
    for (const base of [join(from, 'noop.js'), import.meta.url]) {
      try {
        const api = createRequire(base)('tsx/esm/api') as { register?: () => unknown };
        if (typeof api.register === 'function') {
          api.register();
          return true;
        }
      } catch {
        // Not installed there; try the next place.
      }
    }
    return false;
  })();
  return tsxRegistered;
}

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

const codeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

/** The tools in one export: a tool, or a list of tools. */
function toolsOf(value: unknown, name: string, file: string): Tool[] | string | undefined {
  if (isTool(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.some(isTool)) {
    const index = value.findIndex((item) => !isTool(item));
    if (index >= 0) {
      return `${file}: export "${name}"[${index}] is not a tool; build every tool with defineTool().`;
    }
    return value as Tool[];
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    'name' in value &&
    'execute' in value &&
    typeof (value as { execute: unknown }).execute === 'function'
  ) {
    return `${file}: export "${name}" looks like a tool but was not made by defineTool(); wrap it: export const ${name === 'default' ? 'tool' : name} = defineTool({ ... }).`;
  }
  return undefined;
}

/**
 * Imports one tool module and checks its exports: every export that is a tool made by
 * `defineTool` (or a list of them) counts; a default export that is a function is called
 * with {@link ToolModuleApi} and may return a tool or a list (so a module needs no import
 * of hintgate); `init` and `dispose`, when exported, must be functions. `version` makes
 * the import fresh after the file changed. TypeScript modules load through tsx's loader
 * when tsx is installed (see `docs/discovery.md`).
 *
 * Never throws: a module that cannot load or fails validation comes back as a
 * {@link ToolModuleProblem}.
 */
export async function loadToolModule(
  file: string,
  options: { readonly version: string; readonly cwd: string },
): Promise<LoadedToolModule | ToolModuleProblem> {
  const url = `${pathToFileURL(file).href}?v=${encodeURIComponent(options.version)}`;
  let namespace: Record<string, unknown>;
  try {
    try {
      namespace = (await import(url)) as Record<string, unknown>;
    } catch (error) {
      if (!(isTypeScript(file) && codeOf(error) === 'ERR_UNKNOWN_FILE_EXTENSION')) throw error;
      if (!(await registerTsx(options.cwd))) {
        return {
          file,
          message: `${file} is TypeScript and no TypeScript loader is available: install tsx where hintgate runs (npm install --save-dev tsx), or start hintgate with node --import tsx, or compile the module to .js/.mjs.`,
        };
      }
      namespace = (await import(url)) as Record<string, unknown>;
    }
  } catch (error) {
    return {
      file,
      message: `${file} cannot be loaded: ${messageOf(error)}. Fix the module (running "node ${file}" shows the error with its stack).`,
    };
  }

  const tools: Tool[] = [];
  let init: LoadedToolModule['init'];
  let dispose: LoadedToolModule['dispose'];
  for (const [name, value] of Object.entries(namespace)) {
    if (name === 'init' || name === 'dispose') {
      if (typeof value !== 'function') {
        return {
          file,
          message: `${file}: export "${name}" must be a function (${name}() { ... }), not ${value === null ? 'null' : typeof value}.`,
        };
      }
      if (name === 'init') init = value as LoadedToolModule['init'];
      else dispose = value as LoadedToolModule['dispose'];
      continue;
    }
    let exported = value;
    if (name === 'default' && typeof value === 'function' && !isTool(value)) {
      try {
        exported = await (value as (api: ToolModuleApi) => unknown)(API);
      } catch (error) {
        return {
          file,
          message: `${file}: the default export failed while making its tools: ${messageOf(error)}. Fix the module.`,
        };
      }
      if (toolsOf(exported, name, file) === undefined) {
        return {
          file,
          message: `${file}: the default export returned neither a tool nor a list of tools; return defineTool({ ... }) or an array of them.`,
        };
      }
    }
    const found = toolsOf(exported, name, file);
    if (typeof found === 'string') return { file, message: found };
    if (found !== undefined) tools.push(...found);
  }
  if (tools.length === 0) {
    return {
      file,
      message: `${file} exports no tool: export tools made by defineTool(), as in export const search = defineTool({ ... }), or a default function (api) => api.defineTool({ ... }).`,
    };
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      return {
        file,
        message: `${file} exports two tools named "${tool.name}" (or one tool twice); rename one, or export each tool once.`,
      };
    }
    seen.add(tool.name);
  }
  return {
    file,
    tools: Object.freeze(tools),
    ...(init === undefined ? {} : { init }),
    ...(dispose === undefined ? {} : { dispose }),
  };
}
