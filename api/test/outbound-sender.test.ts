// The one sender's pace, with destinations in memory: a hung destination holds only its own lane, every due
// destination is served whatever their number, a lane with more gives its place to the others, a retry wakes the
// sender at its time, wake-ups made together are one claim, and closing aborts what is in flight.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSender, type Outbound, type Served } from '../src/domain/sender.js';
import { waitFor } from './helpers/processes.js';

interface Destination {
  id: string;
  /** Entries waiting. */
  waiting: number;
  sent: number;
  /** Never answers until aborted. */
  hangs?: boolean;
  /** When it was last served (the claim takes the longest unserved first). */
  servedAt: number;
  dueAt?: number;
  held?: boolean;
}

const quietLog = { error: () => {} };

/** Destinations in memory as a kind of delivery: `perTurn` entries a turn, claims counted, retries on `now`. */
function inMemory(
  destinations: Destination[],
  maxLanes: number,
  perTurn = Number.POSITIVE_INFINITY,
  now: () => number = Date.now,
) {
  let tick = 0;
  const counts = { claims: 0, served: 0 };
  const outbound: Outbound<Destination> = {
    name: 'test',
    maxLanes,
    keyOf: (destination) => destination.id,
    async claim(limit, busy) {
      counts.claims++;
      const due = destinations
        .filter((d) => !d.held && !busy.has(d.id) && d.waiting > 0 && (d.dueAt ?? 0) <= now())
        .sort((a, b) => a.servedAt - b.servedAt)
        .slice(0, limit);
      for (const d of due) d.held = true;
      return due;
    },
    async serve(destination, signal): Promise<Served> {
      counts.served++;
      if (destination.hangs)
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      if (signal.aborted) return { delivered: 0 };
      await new Promise((resolve) => setImmediate(resolve));
      const now = Math.min(destination.waiting, perTurn);
      destination.waiting -= now;
      destination.sent += now;
      destination.servedAt = ++tick;
      return { delivered: now, more: destination.waiting > 0 };
    },
    async release(destination) {
      destination.held = false;
    },
  };
  return { outbound, counts };
}

const destination = (id: string, waiting: number, extra: Partial<Destination> = {}): Destination => ({
  id,
  waiting,
  sent: 0,
  servedAt: 0,
  ...extra,
});

describe('the one sender', () => {
  it('a hung destination holds only its own lane: every other one is served while it hangs', async () => {
    const hung = destination('colgado', 5, { hangs: true });
    const others = Array.from({ length: 40 }, (_, i) => destination(`d${i}`, 3));
    const { outbound } = inMemory([hung, ...others], 4);
    const sender = createSender(outbound, { log: quietLog, databaseLost: () => {} });
    sender.start();
    try {
      await waitFor('every other destination served', () => others.every((d) => d.sent === 3), 10_000, 5);
      assert.equal(hung.sent, 0);
      assert.equal(hung.held, true, 'still in its lane');
    } finally {
      await sender.close();
    }
    assert.equal(hung.held, false, 'closing aborted it and gave it back');
  });

  it('destinations that always have more share the places in turns: none waits for another to run dry', async () => {
    const busy = Array.from({ length: 12 }, (_, i) => destination(`b${i}`, 1_000));
    const { outbound } = inMemory(busy, 3, 10);
    const sender = createSender(outbound, { log: quietLog, databaseLost: () => {} });
    sender.start();
    try {
      await waitFor('every destination served at least twice', () => busy.every((d) => d.sent >= 20), 10_000, 5);
      // Served in turns: when the last one got its second turn, none was far ahead.
      const sent = busy.map((d) => d.sent);
      assert.ok(Math.max(...sent) - Math.min(...sent) <= 60, String(sent));
    } finally {
      await sender.close();
    }
  });

  it('deliverDue serves everything due, its count is what the destinations took, and then claims once more', async () => {
    const all = Array.from({ length: 9 }, (_, i) => destination(`e${i}`, 4));
    const { outbound, counts } = inMemory(all, 2, 3);
    const sender = createSender(outbound, { log: quietLog, databaseLost: () => {} });
    assert.equal(await sender.deliverDue(), 36);
    assert.ok(all.every((d) => d.waiting === 0));
    const claims = counts.claims;
    assert.equal(await sender.deliverDue(), 0);
    assert.equal(counts.claims, claims + 1, 'nothing due: one claim, which found nothing');
    await sender.close();
  });

  it('a failed destination is woken at its retry time without a poll; wake-ups made together are one claim', async () => {
    let failures = 1;
    const one = destination('reintento', 1);
    const { outbound, counts } = inMemory([one], 2);
    const serve = outbound.serve.bind(outbound);
    outbound.serve = async (d, signal) => {
      if (failures-- > 0) {
        d.dueAt = Date.now() + 150;
        return { delivered: 0, dueAt: new Date(d.dueAt) };
      }
      return serve(d, signal);
    };
    // A sweep far away: only the retry's own timer can bring it back within the test.
    const sender = createSender(outbound, { log: quietLog, databaseLost: () => {}, sweepMs: 600_000 });
    sender.start();
    try {
      await waitFor('sent on its retry', () => one.sent === 1, 5_000, 5);
      // The lane that delivered looks once more (and finds nothing): let it.
      await waitFor('the lane given back', () => one.held === false, 5_000, 5);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = counts.claims;
      for (let i = 0; i < 50; i++) sender.wake();
      await waitFor('the claim they asked for', () => counts.claims > before, 5_000, 5);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(counts.claims, before + 1);
    } finally {
      await sender.close();
    }
  });

  it('a retry is claimed once its own clock reads its time, even when a timer fires before that clock does', async () => {
    // A clock at half the speed of the timers' (whole milliseconds, as every clock of the product's): each timer fires
    // when this clock still reads before the retry's time.
    const start = Date.now();
    const slow = () => start + Math.floor((Date.now() - start) / 2);
    let failures = 1;
    const one = destination('reloj-lento', 1);
    const { outbound } = inMemory([one], 2, Number.POSITIVE_INFINITY, slow);
    const serve = outbound.serve.bind(outbound);
    outbound.serve = async (d, signal) => {
      if (failures-- > 0) {
        d.dueAt = slow() + 100;
        return { delivered: 0, dueAt: new Date(d.dueAt) };
      }
      return serve(d, signal);
    };
    const sender = createSender(outbound, { log: quietLog, databaseLost: () => {}, sweepMs: 600_000, now: slow });
    sender.start();
    try {
      await waitFor('sent on its retry', () => one.sent === 1, 5_000, 5);
    } finally {
      await sender.close();
    }
  });

  it('an idle sender claims once per sweep and nothing in between', async () => {
    const { outbound, counts } = inMemory([destination('vacio', 0)], 2);
    const sender = createSender(outbound, { log: quietLog, databaseLost: () => {}, sweepMs: 100 });
    sender.start();
    try {
      await waitFor('three sweeps', () => counts.claims >= 4, 5_000, 5);
      assert.equal(counts.served, 0);
    } finally {
      await sender.close();
    }
    const after = counts.claims;
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(counts.claims, after, 'closed: no claim after');
  });
});
