/** An item ordered by its admission number. */
export interface Sequenced {
  /** Admission order: smaller comes first. */
  readonly seq: number;
}

/**
 * A binary min-heap of items by `seq`: `push` and `pop` in O(log n), `peek` in O(1). The
 * scheduler keeps one per origin for its ready calls, so taking the earliest ready call of an
 * origin does not scan the others.
 */
export class SeqHeap<T extends Sequenced> {
  readonly #items: T[] = [];

  /** Items held. */
  get size(): number {
    return this.#items.length;
  }

  /** The item with the smallest `seq`, left in place; `undefined` when empty. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds an item. */
  push(item: T): void {
    const items = this.#items;
    let index = items.length;
    items.push(item);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent] as T;
      if (above.seq <= item.seq) break;
      items[index] = above;
      index = parent;
    }
    items[index] = item;
  }

  /** Removes and returns the item with the smallest `seq`; `undefined` when empty. */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    const size = items.length;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      if (right < size && (items[right] as T).seq < (items[left] as T).seq) child = right;
      const below = items[child] as T;
      if (below.seq >= last.seq) break;
      items[index] = below;
      index = child;
    }
    items[index] = last;
    return top;
  }
}
