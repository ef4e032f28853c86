// Background work done in rounds (the mail outbox, the back-channel logouts): one round at a time per instance; a
// call during a round is answered by that round's promise and asks for another round right after it, so whatever
// was queued meanwhile is not left for the next poll.

export interface SerialRounds {
  /** Runs rounds until one ends with no call having come in during it; resolves with their total. */
  run(): Promise<number>;
  /** The rounds in progress, if any (closing waits for them). */
  current(): Promise<number> | undefined;
}

export function serialRounds(round: () => Promise<number>, stopped: () => boolean): SerialRounds {
  let running: Promise<number> | undefined;
  let again = false;
  return {
    run() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          again = false;
          total += await round();
        } while (again && !stopped());
        return total;
      })().finally(() => {
        running = undefined;
      });
      return running;
    },
    current: () => running,
  };
}
