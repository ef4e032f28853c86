import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DENSE_SHARE, emailSearchPlan, surelyAtLeastShare } from '../src/domain/user-directory/email-search.js';

// Which part of an email fragment the trigram index is asked for, and when the page is found by walking the table
// instead. The bench's addresses: every one has 'usuario' and 'dominio', 50 domains.
const sample = Array.from(
  { length: 4000 },
  (_, i) => `usuario${String(i * 250 + 17).padStart(7, '0')}@dominio${i % 50}.example`,
);

describe('emailSearchPlan', () => {
  it('asks the index for the digits of an address, not for the trigrams every address has', () => {
    const plan = emailSearchPlan('usuario0004242', sample);
    assert.ok(plan.indexed && plan.indexed.length >= 3, JSON.stringify(plan));
    assert.ok('usuario0004242'.includes(plan.indexed), 'a part of the fragment');
    for (const common of ['usu', 'sua', 'uar', 'ari', 'rio']) assert.ok(!plan.indexed.includes(common), plan.indexed);
    assert.deepEqual([plan.dense, plan.walkCount], [false, false]);
  });

  it("asks for a domain's own trigram and walks the table for a domain in 2 % of the addresses", () => {
    const plan = emailSearchPlan('@dominio7.', sample);
    assert.ok(plan.indexed?.endsWith('o7') || plan.indexed?.includes('io7'), JSON.stringify(plan));
    assert.ok(!plan.indexed?.includes('dom'));
    assert.equal(plan.dense, true);
    assert.equal(plan.walkCount, true);
    assert.ok(1 / 50 > DENSE_SHARE);
  });

  it('keeps a fragment found nowhere sparse, and picks a part of at least 3 letters or digits', () => {
    const plan = emailSearchPlan('nadie-coincide', sample);
    assert.equal(plan.dense, false);
    assert.ok(plan.indexed && /^[a-z0-9]{3,}$/.test(plan.indexed) && 'nadie-coincide'.includes(plan.indexed));
  });

  it('sends the whole fragment as before without a sample or without 3 letters or digits in a row', () => {
    const asBefore = { indexed: null, dense: false, walkCount: false, surelyMatching: 0, removalsAt: 0 };
    assert.deepEqual(emailSearchPlan('usuario0004242', []), asBefore);
    assert.deepEqual(emailSearchPlan('a.b@c', sample), asBefore);
    assert.deepEqual(emailSearchPlan('%_\\', sample), asBefore);
  });
});

describe('surelyMatching: how many addresses the sample vouches for', () => {
  it('vouches for thousands of a domain in 2 % of a million, for none of a fragment the sample lacks', () => {
    const domain = emailSearchPlan('@dominio7.', sample, 1_000_000, 42);
    assert.ok(domain.surelyMatching > 2_000 && domain.surelyMatching < 20_000, String(domain.surelyMatching));
    assert.equal(domain.removalsAt, 42, 'the removals counted with the sample travel with the plan');
    assert.equal(emailSearchPlan('nadie-coincide', sample, 1_000_000).surelyMatching, 0);
    assert.equal(emailSearchPlan('@dominio7.', sample).surelyMatching, 0, 'no table size, no claim');
  });

  it('stays below the share seen, and is 0 for nothing seen or no sample', () => {
    assert.equal(surelyAtLeastShare(0, 4000), 0);
    assert.equal(surelyAtLeastShare(3, 0), 0);
    for (const hits of [1, 10, 80, 400, 4000]) {
      const low = surelyAtLeastShare(hits, 4000);
      assert.ok(low >= 0 && low < hits / 4000, `${hits}: ${low}`);
      assert.ok(low <= surelyAtLeastShare(hits + 1, 4000), 'more hits, more vouched for');
    }
  });

  it('never vouches for more addresses than the table has, over 60 000 random samples near the cap', () => {
    // A table of a million where a fragment is in 1 500, 2 000 or 3 000 addresses (the claim that matters is "more than
    // 2 000"): each sample of 4 000 addresses draws its hits at random (a seeded generator, so every run is the same).
    let seed = 19;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const table = 1_000_000;
    const size = 4000;
    for (const matching of [1_500, 2_000, 3_000]) {
      let over = 0;
      let highest = 0;
      for (let trial = 0; trial < 20_000; trial++) {
        let hits = 0;
        for (let draw = 0; draw < size; draw++) if (random() < matching / table) hits++;
        const vouched = Math.floor(table * surelyAtLeastShare(hits, size));
        highest = Math.max(highest, vouched);
        if (vouched > matching) over++;
      }
      assert.equal(over, 0, `${matching}: vouched for more than there are (highest ${highest})`);
    }
  });
});
