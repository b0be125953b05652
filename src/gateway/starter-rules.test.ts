import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig, renderStarterConfig } from './config/index.js';
import { createGateway } from './create-gateway.js';
import { everythingServer, tempDir } from './gateway.test-helpers.js';
import { pinGateway } from './pin-gateway.js';
import { planGatewayTools } from './plan-gateway-tools.js';

// Every rule a starter configuration writes decides at least one call of its servers: no
// rule of it is shadowed by another. Over the real @modelcontextprotocol/server-everything.

let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ dir, remove } = await tempDir());
});
afterAll(() => remove());

const everything = everythingServer();
const STARTERS = {
  'the starter of "hintgate init"': renderStarterConfig().replace(
    'command: npx\n    args: ["-y", "@modelcontextprotocol/server-everything"]',
    `command: ${JSON.stringify(everything.command)}\n    args: ${JSON.stringify(everything.args)}`,
  ),
  'the starter of "hintgate init --from"': renderStarterConfig({
    servers: [{ name: 'everything', entry: everything }],
  }),
};

describe.each(Object.entries(STARTERS))('%s', (name, text) => {
  it.each(['ask', 'auto'] as const)(
    'has no rule that decides no call of its servers (mode %s)',
    { timeout: 60_000 },
    async (mode) => {
      expect(text).toContain(everything.args[0] as string);
      const file = join(dir, `${name.length}-${mode}.yaml`);
      await writeFile(file, text.replace(/^mode: ask$/m, `mode: ${mode}`));
      const config = await loadGatewayConfig(file);
      await pinGateway({ config });
      const gateway = await createGateway({
        config,
        onNotice: () => {},
        onError: () => {},
        watchPins: false,
      });
      try {
        const plans = await planGatewayTools({ gateway, config });
        expect(plans.length).toBeGreaterThan(5);
        expect(plans.filter((plan) => plan.outcome === 'held back')).toEqual([]);
        config.rules.forEach((_rule, index) => {
          const decided = plans.filter((plan) => plan.why.startsWith(`rule #${index + 1} (`));
          expect(decided.length, `rule #${index + 1} decides no call`).toBeGreaterThan(0);
        });
      } finally {
        await gateway.close();
      }
    },
  );
});
