import type { CheckedOrigin, OriginInfo } from './origin-options.js';

const infos = new WeakMap<CheckedOrigin, OriginInfo>();

/**
 * What the registry tells of an origin (`origins()`, `origin(name)`): one frozen record per
 * origin state, made when first asked for. Origins are never changed in place (a change
 * makes a new one), so the record stays true for as long as its origin is current.
 */
export function originInfo(o: CheckedOrigin): OriginInfo {
  let info = infos.get(o);
  if (info === undefined) {
    info = Object.freeze({
      name: o.name,
      layer: o.layer,
      trusted: o.trusted,
      ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
      ...(o.rateLimit === undefined ? {} : { rateLimit: o.rateLimit }),
      toolCount: o.tools.length,
      ...(o.file === undefined ? {} : { file: o.file }),
      ...(o.configuredByName === false ? { configuredByName: false as const } : {}),
    });
    infos.set(o, info);
  }
  return info;
}
