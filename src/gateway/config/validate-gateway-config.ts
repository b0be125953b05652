import { type StandaloneSchema, standaloneSchemaCheck } from '../../config-problems/index.js';
import { GATEWAY_CONFIG_ADVICE } from './gateway-config-advice.js';
import * as generated from './gateway-schema.generated.js';

/**
 * Checks a parsed gateway configuration against `schema/hintgate.schema.json` (every error)
 * and returns what is wrong, unlocated, in the words of {@link GATEWAY_CONFIG_ADVICE}. The
 * schema is compiled ahead of time (`npm run gen:schemas`), so that starting the gateway
 * neither reads it nor compiles code.
 */
export const validateGatewayConfig = standaloneSchemaCheck(
  generated as unknown as StandaloneSchema,
  (path) => (path.length === 0 ? 'a hintgate configuration key' : 'an allowed key here'),
  GATEWAY_CONFIG_ADVICE,
);
