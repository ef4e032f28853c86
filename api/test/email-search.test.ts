import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DENSE_SHARE, emailSearchPlan } from '../src/routes/users/email-search.js';

// Issue 19, item 3: which part of an email fragment the trigram index is asked for, and when the page is found by
// walking the table instead. The bench's addresses: every one has 'usuario' and 'dominio', 50 domains.
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
    const asBefore = { indexed: null, dense: false, walkCount: false };
    assert.deepEqual(emailSearchPlan('usuario0004242', []), asBefore);
    assert.deepEqual(emailSearchPlan('a.b@c', sample), asBefore);
    assert.deepEqual(emailSearchPlan('%_\\', sample), asBefore);
  });
});
