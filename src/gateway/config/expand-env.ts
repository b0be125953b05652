/** Environment variables to expand references from, as `process.env` holds them. */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/** The text with its references replaced, or what is wrong with it. */
export type ExpandEnvResult =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly problem: string };

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const REFERENCE = new RegExp(`^(?:env:)?(${NAME})(?::-(.*))?$`, 's');

/** Variables VS Code fills in itself; a hint for configurations copied from it. */
const VSCODE_VARIABLES = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'userHome',
  'cwd',
  'pathSeparator',
  'file',
]);

/**
 * Replaces environment variable references in a configuration value:
 * - `${NAME}` and `${env:NAME}` (the VS Code spelling): the variable's value; an unset
 *   variable is an error (a variable set to the empty string counts as set).
 * - `${NAME:-default}`: the variable's value, or `default` when it is unset or empty.
 * - `$${` : a literal `${`.
 *
 * Anything else in `${...}`, such as VS Code's `${input:...}`, is an error.
 *
 * @returns The expanded text, or the rest of a sentence saying what is wrong, starting
 *   with a verb (`uses ${TOKEN}, which is not set; ...`).
 */
export function expandEnv(text: string, env: EnvironmentVariables): ExpandEnvResult {
  let out = '';
  const unset: string[] = [];
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf('$', i);
    if (dollar < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, dollar);
    if (text.startsWith('$${', dollar)) {
      out += '${';
      i = dollar + 3;
      continue;
    }
    if (!text.startsWith('${', dollar)) {
      out += '$';
      i = dollar + 1;
      continue;
    }
    const close = text.indexOf('}', dollar + 2);
    if (close < 0) {
      return fail(
        `has "\${" without a closing "}"; write \${NAME} for an environment variable, or $\${ for a literal "\${".`,
      );
    }
    const inner = text.slice(dollar + 2, close);
    const match = REFERENCE.exec(inner);
    if (match === null) return fail(badReference(inner));
    const name = match[1] ?? '';
    const fallback = match[2];
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (fallback !== undefined) out += value === undefined || value === '' ? fallback : value;
    else if (value !== undefined) out += value;
    else if (!unset.includes(name)) unset.push(name);
    i = close + 1;
  }
  return unset.length === 0 ? { ok: true, value: out } : fail(unsetProblem(unset));
}

function fail(problem: string): ExpandEnvResult {
  return { ok: false, problem };
}

function badReference(inner: string): string {
  if (inner.startsWith('input:')) {
    return `uses \${${inner}}, a VS Code input, which hintgate cannot ask for; put the value in an environment variable and write \${NAME}.`;
  }
  return `has "\${${inner}}", which is not an environment variable reference; write \${NAME} (letters, digits and "_"), \${NAME:-default}, or $\${ for a literal "\${".`;
}

function unsetProblem(names: readonly string[]): string {
  const refs = names.map((name) => `\${${name}}`).join(', ');
  const verb = names.length === 1 ? 'is' : 'are';
  const vscode = names.filter((name) => VSCODE_VARIABLES.has(name));
  const hint =
    vscode.length > 0
      ? ` (\${${vscode[0]}} is a VS Code variable, which hintgate does not fill in)`
      : '';
  return `uses ${refs}, which ${verb} not set${hint}; set ${names.join(', ')} in the environment hintgate runs in, or give a default, as in \${${names[0]}:-value}.`;
}
