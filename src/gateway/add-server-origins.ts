import type { ToolRegistry } from '../registry/index.js';
import type { LoadedGatewayConfig } from './config/index.js';

/**
 * Adds one origin per upstream server of `config` to `registry`, in the `bundled` layer (a
 * global or project tool of the same name shadows a server's tool). A server names its own
 * tools, so configuration by tool name (a `tools:` entry meant for a local tool) never
 * reaches them: they take `servers.<server>.tools` only, through `configureOrigin`. A
 * server's quota is the origin's, unless shared state keeps it (one budget per replica set).
 */
export function addServerOrigins(registry: ToolRegistry, config: LoadedGatewayConfig): void {
  for (const server of config.servers) {
    registry.addOrigin({
      name: server.name,
      layer: 'bundled',
      trusted: server.trusted,
      configuredByName: false,
      ...(server.concurrency === undefined ? {} : { concurrency: server.concurrency }),
      ...(server.rateLimit === undefined || config.state !== undefined
        ? {}
        : { rateLimit: server.rateLimit }),
    });
  }
}
