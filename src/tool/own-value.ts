/**
 * The value of an own property of `record`, never one inherited from `Object.prototype`:
 * `ownValue({}, 'constructor')` is `undefined`, where `({})['constructor']` is a function.
 * Use it for every lookup keyed by a name from outside (a tool, server or argument name, a
 * key of a configuration or pin file), which may be `__proto__`, `toString` or `valueOf`.
 */
export function ownValue<T>(
  record: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
