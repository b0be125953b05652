/**
 * A map from each object of a schema to its JSON pointer, to look up {@link SchemaAdvice}
 * for the `parentSchema` of an Ajv error (which is the very object of the schema).
 *
 * @param base The pointer of `schema` itself, when it is part of a larger schema.
 */
export function schemaPointers(schema: unknown, base = ''): Map<object, string> {
  const pointers = new Map<object, string>();
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== 'object' || node === null || pointers.has(node)) return;
    pointers.set(node, pointer);
    for (const [key, child] of Object.entries(node)) {
      walk(child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  };
  walk(schema, base);
  return pointers;
}
