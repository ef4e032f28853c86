/** A module fetched on first need (a chunk of its own), with what has come so far. */
export interface LazyModule<T> {
  /** The module, fetched at the first call; a fetch that failed is made again at the next call. */
  load: () => Promise<T>;
  /** The module if it has come already, else undefined: for work that must not wait (or cannot, being synchronous). */
  loaded: () => T | undefined;
}

/** `importer` is a dynamic `import()`, so the bundler splits the module off the page that uses it. */
export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let pending: Promise<T> | undefined;
  let module: T | undefined;
  return {
    load: () => {
      pending ??= importer().then(
        (arrived) => {
          module = arrived;
          return arrived;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    loaded: () => module,
  };
}
