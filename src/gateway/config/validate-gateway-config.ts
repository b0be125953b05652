import { shippedSchemaCheck } from '../../fs/index.js';
import { GATEWAY_CONFIG_ADVICE } from './gateway-config-advice.js';

/**
 * Checks a parsed gateway configuration against the shipped `schema/hintgate.schema.json`
 * (Ajv, draft 2020-12, every error) and returns what is wrong, unlocated, in the words of
 * {@link GATEWAY_CONFIG_ADVICE}. The schema sits beside `src/` and `dist/` alike.
 */
export const validateGatewayConfig = shippedSchemaCheck(
  new URL('../../../schema/hintgate.schema.json', import.meta.url),
  (path) => (path.length === 0 ? 'a hintgate configuration key' : 'an allowed key here'),
  GATEWAY_CONFIG_ADVICE,
);
