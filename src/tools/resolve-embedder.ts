import { HintgateError } from '../errors/index.js';
import { isPlainObject } from '../tool/index.js';

/** A vector per text, in the order of the texts. */
export type Embeddings = readonly (readonly number[] | Float32Array | Float64Array)[];

/**
 * Turns texts into vectors: any function of this shape is an embedder (a local model, a
 * call to an embedding API, AI SDK's `embedMany`). It gets a signal that aborts when the
 * call is cancelled or times out.
 */
export type EmbedFunction = (
  texts: readonly string[],
  context: { readonly signal: AbortSignal },
) => Embeddings | PromiseLike<Embeddings>;

/**
 * The part of an AI SDK `EmbeddingModel` (`openai.embedding('text-embedding-3-small')`,
 * specification v2 or v3) that is used: `doEmbed`, and `maxEmbeddingsPerCall`, `provider`
 * and `modelId` when present. The `ai` package is not needed.
 */
export interface EmbeddingModelLike {
  /** Embeds `values`, one vector each, in order. */
  doEmbed(options: {
    values: string[];
    abortSignal?: AbortSignal;
  }): PromiseLike<{ readonly embeddings: Embeddings }>;
  /** Values one `doEmbed` call takes at most; the batch size when given. */
  readonly maxEmbeddingsPerCall?: number | PromiseLike<number | undefined> | undefined;
  /** The provider's name (`openai`), for the embedder's id. */
  readonly provider?: string;
  /** The model's name (`text-embedding-3-small`), for the embedder's id. */
  readonly modelId?: string;
}

/** An embedder with settings. */
export interface EmbedderOptions {
  /** The embedder: a function from texts to vectors, or an AI SDK embedding model. */
  readonly embed: EmbedFunction | EmbeddingModelLike;
  /**
   * Names the embedder in the index; when it changes, every chunk is embedded again.
   * Default: `<provider>/<modelId>` of a model, `custom` for a function.
   */
  readonly id?: string;
  /**
   * True when texts do not leave this machine (a local model). Default false: file contents
   * and queries may go to an outside service, so `index_workspace` and `semantic_search`
   * declare `openWorldHint: true`.
   */
  readonly local?: boolean;
  /** Texts per call of the embedder. Default: the model's `maxEmbeddingsPerCall`, else 64. */
  readonly batchSize?: number;
}

/** What `embedder` of the workspace tools accepts: a function, a model, or either with settings. */
export type Embedder = EmbedFunction | EmbeddingModelLike | EmbedderOptions;

/** An embedder ready to use, as {@link resolveEmbedder} makes it. */
export interface ResolvedEmbedder {
  /** Its name in the index. */
  readonly id: string;
  /** Whether texts stay on this machine. */
  readonly local: boolean;
  /**
   * Vectors of `texts`, in batches, checked: one per text, finite numbers, all of one
   * dimension (and of `dimensions` when given).
   *
   * @throws Error saying what the embedder returned wrongly.
   */
  embed(
    texts: readonly string[],
    signal: AbortSignal,
    dimensions?: number,
  ): Promise<Float32Array[]>;
}

/** Largest vector accepted. */
export const MAX_EMBEDDING_DIMENSIONS = 65_536;
const DEFAULT_BATCH_SIZE = 64;

const invalid = (message: string): never => {
  throw new HintgateError('invalid_option', `createWorkspaceTools: embedder ${message}`);
};

const isModel = (value: unknown): value is EmbeddingModelLike =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { doEmbed?: unknown }).doEmbed === 'function';

/** Checks what an embedder returned for `count` texts, and makes Float32Arrays of it. */
function checkVectors(
  value: unknown,
  count: number,
  dimensions: number | undefined,
): Float32Array[] {
  if (!Array.isArray(value) || value.length !== count) {
    throw new Error(
      `The embedder returned ${Array.isArray(value) ? `${value.length} vectors` : 'no list of vectors'} for ${count} texts.`,
    );
  }
  let expected = dimensions;
  return value.map((vector: unknown, index) => {
    const isArray =
      Array.isArray(vector) || vector instanceof Float32Array || vector instanceof Float64Array;
    const length = isArray ? (vector as ArrayLike<number>).length : 0;
    if (!isArray || length === 0 || length > MAX_EMBEDDING_DIMENSIONS) {
      throw new Error(`The embedder returned no usable vector for text ${index + 1}.`);
    }
    expected ??= length;
    if (length !== expected) {
      throw new Error(
        `The embedder returned a vector of ${length} dimensions for text ${index + 1}, where ${expected} were expected. If the embedder changed, call index_workspace to embed the workspace again.`,
      );
    }
    const out = Float32Array.from(vector as ArrayLike<number>);
    if (!out.every(Number.isFinite)) {
      throw new Error(
        `The embedder returned a vector with a value that is not a finite number for text ${index + 1}.`,
      );
    }
    return out;
  });
}

/**
 * Checks the `embedder` option of the workspace tools and makes one {@link ResolvedEmbedder}
 * of its three forms; undefined when there is none.
 *
 * @throws HintgateError `invalid_option` when it is none of the forms, or a setting is wrong.
 */
export function resolveEmbedder(embedder: Embedder | undefined): ResolvedEmbedder | undefined {
  if (embedder === undefined) return undefined;
  let options: EmbedderOptions;
  if (typeof embedder === 'function' || isModel(embedder)) options = { embed: embedder };
  else if (isPlainObject(embedder)) options = embedder as EmbedderOptions;
  else {
    return invalid(
      'must be a function (texts, { signal }) => vectors, an AI SDK embedding model (with doEmbed), or { embed, id?, local?, batchSize? }.',
    );
  }
  const { embed } = options;
  if (typeof embed !== 'function' && !isModel(embed)) {
    invalid(
      '.embed must be a function (texts, { signal }) => vectors or an AI SDK embedding model.',
    );
  }
  if (options.id !== undefined && (typeof options.id !== 'string' || options.id === '')) {
    invalid('.id must be a non-empty string.');
  }
  if (options.local !== undefined && typeof options.local !== 'boolean') {
    invalid('.local must be true or false.');
  }
  const { batchSize } = options;
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0)) {
    invalid('.batchSize must be a positive integer.');
  }
  const model = isModel(embed) ? embed : undefined;
  const id =
    options.id ??
    (model === undefined
      ? 'custom'
      : [model.provider, model.modelId].filter((part) => typeof part === 'string').join('/') ||
        'model');
  const call = async (texts: string[], signal: AbortSignal): Promise<unknown> =>
    model === undefined
      ? (embed as EmbedFunction)(texts, { signal })
      : (await model.doEmbed({ values: texts, abortSignal: signal }))?.embeddings;
  const size = async (): Promise<number> => {
    if (batchSize !== undefined) return batchSize;
    const max = await model?.maxEmbeddingsPerCall;
    return typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : DEFAULT_BATCH_SIZE;
  };
  return {
    id,
    local: options.local ?? false,
    async embed(texts, signal, dimensions) {
      const vectors: Float32Array[] = [];
      const step = await size();
      for (let from = 0; from < texts.length; from += step) {
        signal.throwIfAborted();
        const batch = texts.slice(from, from + step);
        const got = checkVectors(
          await call(batch, signal),
          batch.length,
          dimensions ?? vectors[0]?.length,
        );
        vectors.push(...got);
      }
      return vectors;
    },
  };
}
