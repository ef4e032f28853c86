import { claimLanding, stillOn } from '../history-entry';

describe('the entry a landing acts from', () => {
  afterEach(() => window.history.replaceState(null, ''));

  it('is the one shown: another entry (a Back meanwhile) is not', () => {
    window.history.replaceState({ key: 'abc', idx: 1 }, '');
    expect(stillOn('abc')).toBe(true);
    expect(stillOn('xyz')).toBe(false);
  });

  it('is taken once: the sign-in page and the guest guard of one entry navigate the tab once between them', () => {
    expect(claimLanding('entry-1')).toBe(true);
    expect(claimLanding('entry-1')).toBe(false);
    // Another entry (the page shown next, a later sign-in) has its own.
    expect(claimLanding('entry-2')).toBe(true);
  });
});
