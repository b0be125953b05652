import { RE2JS } from 're2js';

/**
 * The regular-expression engine for Ajv's `code.regExp` option: JSON Schema `pattern` and
 * `patternProperties` are matched by re2js, a port of RE2, in time linear in the value. A
 * server's schema is hostile, and so are a model's arguments and a server's results: V8
 * takes ten seconds to test `^(a+)+$` on 29 characters, holding the whole process. A
 * pattern RE2 cannot run (a lookaround, a backreference) fails to compile, which a server's
 * tool turns into "arguments sent unchecked" and a tool defined in code into
 * `invalid_schema`.
 */
export const linearRegExp = Object.assign(
  (pattern: string): { test: (value: string) => boolean; toString: () => string } => {
    let regex: RE2JS;
    try {
      regex = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      throw new Error(
        `the pattern ${JSON.stringify(pattern)} cannot be matched in linear time (${(error as Error).message}); patterns are matched with RE2, which has no lookarounds or backreferences`,
        { cause: error },
      );
    }
    // Ajv shares compiled patterns by their string form.
    return { test: (value) => regex.test(value), toString: () => `re2:${pattern}` };
  },
  { code: 'linearRegExp' },
);
