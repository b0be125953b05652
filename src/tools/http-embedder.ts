import { HintgateError } from '../errors/index.js';
import { isPlainObject } from '../tool/index.js';
import type { EmbedderOptions } from './resolve-embedder.js';

/** Options of {@link httpEmbedder}. */
export interface HttpEmbedderOptions {
  /**
   * The embeddings endpoint, `http:` or `https:`: OpenAI's `https://api.openai.com/v1/embeddings`,
   * Ollama's `http://127.0.0.1:11434/v1/embeddings`, or any other that speaks that API.
   */
  readonly url: string;
  /** The model, sent as `model` (`text-embedding-3-small`, `nomic-embed-text`). */
  readonly model: string;
  /** Sent as `Authorization: Bearer KEY` when given. Never logged. */
  readonly apiKey?: string;
  /** Texts per request. Default 64. */
  readonly batchSize?: number;
  /** The `fetch` to use. Default the global one. */
  readonly fetch?: typeof fetch;
}

/** Largest answer read from the endpoint, in bytes. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * An embedder for `semantic_search` over an OpenAI-compatible `POST /v1/embeddings`
 * endpoint (`{ model, input: [texts] }` in, `{ data: [{ index, embedding }] }` out). It counts
 * as local (texts stay on this machine) when the endpoint's host is loopback.
 *
 * @throws HintgateError `invalid_option` for a URL that is not `http:`/`https:` or an
 *   empty model.
 */
export function httpEmbedder(options: HttpEmbedderOptions): EmbedderOptions {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new HintgateError(
      'invalid_option',
      `embedder URL ${JSON.stringify(options.url)} is not a URL; give the embeddings endpoint, such as http://127.0.0.1:11434/v1/embeddings.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HintgateError(
      'invalid_option',
      `embedder URL ${JSON.stringify(options.url)} must be http: or https:.`,
    );
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new HintgateError(
      'invalid_option',
      'the embedder needs a model name, such as text-embedding-3-small or nomic-embed-text.',
    );
  }
  const send = options.fetch ?? fetch;
  const where = `embedder ${url.origin}${url.pathname}`;
  return {
    id: `${url.origin}${url.pathname}#${options.model}`,
    local: LOOPBACK_HOSTS.has(url.hostname),
    batchSize: options.batchSize ?? 64,
    embed: async (texts, { signal }) => {
      const response = await send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
        },
        body: JSON.stringify({ model: options.model, input: texts }),
        signal,
      });
      const length = Number(response.headers.get('content-length') ?? '0');
      if (length > MAX_ANSWER_BYTES) {
        await response.body?.cancel();
        throw new Error(`${where} answered ${length} bytes, more than ${MAX_ANSWER_BYTES}.`);
      }
      const text = await response.text();
      if (!response.ok) {
        throw new Error(
          `${where} answered HTTP ${response.status}: ${text.slice(0, 300).replace(/\s+/g, ' ')}`,
        );
      }
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch {
        throw new Error(`${where} did not answer JSON.`);
      }
      const data = isPlainObject(answer) ? answer.data : undefined;
      if (!Array.isArray(data) || data.length !== texts.length) {
        throw new Error(
          `${where} did not answer { data: [...] } with one embedding per text (${texts.length}).`,
        );
      }
      const vectors: number[][] = new Array(texts.length);
      data.forEach((item: unknown, position) => {
        const entry = isPlainObject(item) ? item : {};
        const index = typeof entry.index === 'number' ? entry.index : position;
        if (
          !Array.isArray(entry.embedding) ||
          !Number.isInteger(index) ||
          index < 0 ||
          index >= texts.length
        ) {
          throw new Error(
            `${where} answered a malformed data[${position}]; expected { index, embedding: [numbers] }.`,
          );
        }
        vectors[index] = entry.embedding as number[];
      });
      if (vectors.some((vector) => vector === undefined)) {
        throw new Error(`${where} answered the same index twice.`);
      }
      return vectors;
    },
  };
}
