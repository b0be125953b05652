/** A JSON Schema document as a plain object (draft 2020-12 unless it says otherwise). */
export type JsonSchemaObject = { readonly [key: string]: unknown };

/** True for a plain object (not an array, not null, not a class instance like Date). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The names listed under `properties` of an object schema, including its `allOf` members. */
export function schemaPropertyNames(schema: JsonSchemaObject): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (!isPlainObject(node)) return;
    if (isPlainObject(node.properties)) {
      for (const name of Object.keys(node.properties)) names.add(name);
    }
    if (Array.isArray(node.allOf)) for (const member of node.allOf) visit(member);
  };
  visit(schema);
  return names;
}

const COMPOSITION_KEYS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'] as const;
const OPEN_OBJECT_KEYS = [
  'additionalProperties',
  'patternProperties',
  'unevaluatedProperties',
  '$ref',
  '$dynamicRef',
] as const;

/**
 * Returns a copy of an output schema in which every plain object schema with `properties`
 * and nothing that admits other keys is closed (`additionalProperties: false`), so that a
 * validator that removes additional properties strips fields the schema does not name.
 * Subschemas under composition keywords are left as they are: closing them would reject
 * data the schema accepts.
 */
export function closeObjectSchemas(schema: JsonSchemaObject): JsonSchemaObject {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (!isPlainObject(node)) return node;
    const copy: Record<string, unknown> = { ...node };
    if (COMPOSITION_KEYS.some((key) => key in node)) return copy;
    if (isPlainObject(node.properties)) {
      // fromEntries makes every name an own key, `__proto__` included.
      copy.properties = Object.fromEntries(
        Object.entries(node.properties).map(([name, sub]) => [name, close(sub)]),
      );
      if (!OPEN_OBJECT_KEYS.some((key) => key in node)) copy.additionalProperties = false;
    }
    if (node.items !== undefined) copy.items = close(node.items);
    if (Array.isArray(node.prefixItems)) copy.prefixItems = node.prefixItems.map(close);
    for (const defsKey of ['$defs', 'definitions'] as const) {
      const defs = node[defsKey];
      if (isPlainObject(defs)) {
        copy[defsKey] = Object.fromEntries(
          Object.entries(defs).map(([name, sub]) => [name, close(sub)]),
        );
      }
    }
    return copy;
  };
  return close(schema) as JsonSchemaObject;
}
