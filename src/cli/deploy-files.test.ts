import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadGatewayConfig } from '../gateway/config/index.js';
import { HEALTHZ_PATH } from '../mcp/server/index.js';
import { REPO_ROOT } from './serve-process.test-helpers.js';

// The image and compose files cannot be run here (no Docker): these checks keep them true
// to the repository: files they name exist, ports and names agree, and the configuration
// the gateways mount passes hintgate's own validation.

const DEPLOY = join(REPO_ROOT, 'deploy');
const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

interface ComposeService {
  readonly build?: { readonly context: string };
  readonly image?: string;
  readonly command?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly volumes?: readonly string[];
  readonly ports?: readonly string[];
  readonly depends_on?: Record<string, unknown> | readonly string[];
}
const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const services = Object.entries(compose.services);
const gateways = services.filter(([, service]) => service.build !== undefined);
const dockerfile = read('Dockerfile');

/** The last `CMD`/`ENTRYPOINT`/`EXPOSE`... line of the Dockerfile's final stage. */
const instruction = (name: string): string => {
  const stages = dockerfile.split(/^FROM /m);
  const last = stages.at(-1) ?? '';
  const lines = last.replace(/\\\n\s*/g, ' ').split('\n');
  return lines.filter((line) => line.startsWith(`${name} `)).at(-1) ?? '';
};

describe('deploy/compose.yaml', () => {
  it('runs two gateways built from the repository, Redis, a collector and a load balancer', () => {
    expect(gateways.map(([name]) => name)).toEqual(['gateway-a', 'gateway-b']);
    for (const [, service] of gateways) {
      const context = resolve(DEPLOY, service.build?.context ?? '');
      expect(existsSync(join(context, 'Dockerfile'))).toBe(true);
    }
    const images = services.map(([, s]) => s.image ?? '');
    expect(images.some((image) => image.startsWith('redis:'))).toBe(true);
    expect(images.some((image) => image.startsWith('otel/opentelemetry-collector'))).toBe(true);
    expect(images.some((image) => image.startsWith('nginx:'))).toBe(true);
  });

  it('mounts only files that exist, and declares its named volumes', () => {
    for (const [name, service] of services) {
      for (const volume of service.volumes ?? []) {
        const [source = ''] = volume.split(':');
        if (source.startsWith('.') || isAbsolute(source)) {
          expect(existsSync(resolve(DEPLOY, source)), `${name}: ${source}`).toBe(true);
          expect(statSync(resolve(DEPLOY, source)).isFile(), `${name}: ${source}`).toBe(true);
        } else {
          expect(Object.keys(compose.volumes ?? {}), `${name}: ${source}`).toContain(source);
        }
      }
    }
  });

  it('mounts a configuration that passes hintgate validation where the image reads it, writing only under /data', async () => {
    const cmd = instruction('CMD');
    const configPath = /"--config", "([^"]+)"/.exec(cmd)?.[1];
    expect(configPath).toBe('/config/hintgate.yaml');
    for (const [, service] of gateways) {
      const mount = service.volumes?.find((v) => v.split(':')[1] === configPath);
      expect(mount?.endsWith(':ro')).toBe(true);
      const file = resolve(DEPLOY, mount?.split(':')[0] ?? '');
      // Every variable compose requires of the gateways, set as `docker compose up` would.
      const required = Object.entries(service.environment ?? {})
        .filter(([, value]) => value.includes(':?'))
        .map(([name]) => [name, 'a'.repeat(64)]);
      const config = await loadGatewayConfig(file, { env: Object.fromEntries(required) });
      expect(config.servers.length).toBeGreaterThan(0);
      // The replicas share their limits and approvals in the compose file's Redis.
      expect(config.state?.url).toBe('redis://redis:6379');
      expect(config.state?.secret).toBe('a'.repeat(64));
      // /config is read-only in the container: what the gateway writes lives in /data.
      expect(config.audit.path.startsWith('/data/')).toBe(true);
      expect(config.approvals.path.startsWith('/data/')).toBe(true);
      expect(service.volumes?.some((v) => v.split(':')[1] === '/data')).toBe(true);
    }
  });

  it('sends telemetry to the collector service on the port its OTLP/HTTP receiver listens on', () => {
    const collector = parse(read('deploy/otel-collector.yaml')) as {
      receivers: { otlp: { protocols: { http: { endpoint: string } } } };
      service: { pipelines: Record<string, { receivers: string[] }> };
    };
    const port = collector.receivers.otlp.protocols.http.endpoint.split(':').at(-1);
    expect(Object.keys(collector.service.pipelines).sort()).toEqual(['metrics', 'traces']);
    for (const [, service] of gateways) {
      const endpoint = new URL(service.environment?.OTEL_EXPORTER_OTLP_ENDPOINT ?? '');
      expect(Object.keys(compose.services)).toContain(endpoint.hostname);
      expect(endpoint.port).toBe(port);
    }
  });

  it('balances over the gateway services on the port the image serves, behind the published port', () => {
    const nginx = read('deploy/nginx.conf');
    const servers = [...nginx.matchAll(/^\s*server (\S+):(\d+)/gm)];
    const port = /"--port", "(\d+)"/.exec(instruction('CMD'))?.[1];
    expect(instruction('EXPOSE')).toBe(`EXPOSE ${port}`);
    expect(servers.map((m) => m[1])).toEqual(gateways.map(([name]) => name));
    for (const match of servers) expect(match[2]).toBe(port);
    const listen = /listen (\d+);/.exec(nginx)?.[1];
    const lb = services.find(([, s]) => s.image?.startsWith('nginx:'))?.[1];
    expect(lb?.ports?.some((p) => p.endsWith(`:${listen}`))).toBe(true);
  });
});

describe('Dockerfile', () => {
  it('runs as a non-root user, checks /healthz and copies only what .dockerignore keeps', () => {
    expect(instruction('USER')).toBe('USER node');
    expect(instruction('HEALTHCHECK')).toContain(`:8080${HEALTHZ_PATH}`);
    expect(instruction('ENTRYPOINT')).toContain('/app/dist/cli/main.js');
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((line) => line !== '');
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) =>
      (m[1] ?? '').split(' '),
    );
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'src', 'schema']));
    for (const path of copied) {
      expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
      expect(ignored, path).not.toContain(path);
    }
  });
});
