/**
 * How many elements a piece of a {@link ChunkedList} holds: 4,096 pointers are 32 KiB, well
 * under the size from which V8 allocates an array's elements apart from its heap pages.
 */
export const CHUNK = 4096;
const CHUNK_BITS = 12;

/**
 * A list that only grows, kept in pieces of {@link CHUNK} elements. A JavaScript array
 * that grows past about 16,000 elements has its elements allocated apart from the heap's
 * pages, and copied to a new allocation half again as big each time it fills: fresh
 * memory three times the list's size, each page of it faulted in. A chunked list allocates
 * each element's slot once, in ordinary heap pages, and never copies one.
 */
export class ChunkedList<T> {
  readonly #chunks: T[][] = [];
  #last: T[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(value: T): void {
    if (this.#last.length === CHUNK) {
      this.#chunks.push(this.#last);
      this.#last = [];
    }
    this.#last.push(value);
    this.#length += 1;
  }

  /** The element at `index`, which must be under `length`. */
  at(index: number): T {
    const chunk = index >>> CHUNK_BITS;
    return (chunk === this.#chunks.length ? this.#last : this.#chunks[chunk])?.[
      index & (CHUNK - 1)
    ] as T;
  }

  /**
   * The elements as one array: the list's own up to {@link CHUNK} elements, else one made
   * at its size. The list is not to be used after.
   */
  finish(): T[] {
    return this.#chunks.length === 0 ? this.#last : ([] as T[]).concat(...this.#chunks, this.#last);
  }
}
