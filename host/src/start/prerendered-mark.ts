/**
 * The attribute of `#root` that names the route its markup was prerendered for (host/prerender); taken off once the
 * markup is React's. In a module of its own, without dependencies: the shell's entry reads it before any shared
 * module is loaded.
 */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
