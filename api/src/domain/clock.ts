/** Milliseconds since the epoch; `Date.now` in production, a movable clock in tests. */
export type Clock = () => number;
