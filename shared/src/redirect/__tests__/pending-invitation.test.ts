import {
  clearPendingInvitation,
  invitationPath,
  isInvitationLink,
  PENDING_INVITATION_KEY,
  PENDING_INVITATION_TTL_MS,
  storePendingInvitation,
  takePendingInvitation,
} from '../pending-invitation';

const link = { codigo: '482913', email: 'ana@minera.pe' };

beforeEach(() => sessionStorage.clear());

describe('the invitation a tab follows through a sign-in', () => {
  it('is the mail link: a 6-digit code and an address', () => {
    expect(isInvitationLink(link)).toBe(true);
    expect(isInvitationLink({ codigo: '48291', email: 'ana@minera.pe' })).toBe(false);
    expect(isInvitationLink({ codigo: '48291a', email: 'ana@minera.pe' })).toBe(false);
    expect(isInvitationLink({ codigo: '482913', email: 'ana' })).toBe(false);
    expect(isInvitationLink({ codigo: null, email: null })).toBe(false);
    expect(invitationPath(link)).toBe('/invitacion?codigo=482913&email=ana%40minera.pe');
  });

  it('is read once', () => {
    storePendingInvitation(link, 1_000);
    expect(takePendingInvitation(2_000)).toEqual(link);
    expect(takePendingInvitation(2_000)).toBeNull();
  });

  it('is forgotten when too old, when cleared, and never kept malformed', () => {
    storePendingInvitation(link, 0);
    expect(takePendingInvitation(PENDING_INVITATION_TTL_MS)).toBeNull();
    storePendingInvitation(link);
    clearPendingInvitation();
    expect(takePendingInvitation()).toBeNull();
    storePendingInvitation({ codigo: '1', email: 'ana@minera.pe' });
    expect(sessionStorage.getItem(PENDING_INVITATION_KEY)).toBeNull();
  });
});
