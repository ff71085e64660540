/** One page of a list, as the API answers it. */
export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * The result of a `list` call: `await` it for the first page, or iterate it with `for await` for every item of
 * every page (each page fetched when the previous one is used up, with `starting_after` = its `next_cursor`).
 */
export class PageList<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | undefined;

  constructor(private readonly fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>) {}

  private firstPage(): Promise<Page<T>> {
    this.first ??= this.fetchPage(undefined);
    return this.first;
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page = await this.firstPage();
    for (;;) {
      yield* page.data;
      if (!page.has_more || !page.next_cursor) return;
      page = await this.fetchPage(page.next_cursor);
    }
  }

  /** Every item of every page, in order; stops with an error past `max` items (default 10 000). */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= max) throw new RangeError(`More than ${max} items: iterate with for await instead`);
      items.push(item);
    }
    return items;
  }
}
