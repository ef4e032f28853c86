import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userIdentities, users, type IdentityProvider, type User } from '../../db/schema.js';
import { normalizeEmail } from '../../lib/email-address.js';
import { findUserByEmail, findUserById } from '../accounts/queries.js';
import { activateUser } from '../registration/activation.js';

/** What the portal takes from a provider's ID token (and, for Apple, the name it sends once). */
export interface ProviderProfile {
  provider: IdentityProvider;
  subject: string;
  email: string;
  name: string;
  lastName: string;
  picture: string | null;
}

/** Why a provider's person cannot sign in; the callback sends them to /login?error=auth_failed. */
export class SignInRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SignInRefused';
  }
}

/**
 * The portal account of a person the provider vouches for (their email verified there):
 * 1. the account already linked to this provider identity, whatever its email is now at the provider;
 * 2. else the account with that email, which gets linked;
 * 3. else a new active account with the free plans, linked.
 * An account still waiting for its emailed code is activated (the provider has verified the address) with no
 * password, and every pending registration (password and profile) is dropped: whoever typed them never proved they
 * own the email, and keeping them would let them into the real owner's account (pre-account takeover). A suspended
 * account stays out.
 */
export async function signInWithIdentity(db: Db, profile: ProviderProfile): Promise<User> {
  const email = normalizeEmail(profile.email);
  const userId = await db.transaction(async (tx) => {
    const [linked] = await tx
      .select({ userId: userIdentities.userId })
      .from(userIdentities)
      .where(and(eq(userIdentities.provider, profile.provider), eq(userIdentities.subject, profile.subject)));
    let user = linked ? await findUserById(tx, linked.userId) : await findUserByEmail(tx, email);
    if (!user) {
      // Moves `user_counts` and `user_day_counts` (statement triggers on users, docs/triggers.md).
      const [created] = await tx
        .insert(users)
        .values({ email, name: profile.name, lastName: profile.lastName, picture: profile.picture })
        // Two first sign-ins of one person at once: the second finds the row the first created.
        .onConflictDoNothing({ target: users.email })
        .returning();
      user = created ?? (await findUserByEmail(tx, email));
      if (!user) throw new SignInRefused('the account vanished while signing in');
    }
    if (user.status === 'suspended') throw new SignInRefused('suspended account');
    if (user.status === 'pending_verification') {
      // activateUser leaves no password and drops every pending registration; the profile typed by registrants
      // nobody has verified goes too, and the provider's name takes its place below.
      await activateUser(tx, user.id);
      await tx.update(users).set({ name: '', lastName: '', phone: '' }).where(eq(users.id, user.id));
      user = { ...user, name: '', lastName: '', phone: '' };
    }
    // A name the account lacks is taken from the provider (Apple sends it only on the first authorization).
    if (!user.name && !user.lastName && (profile.name || profile.lastName)) {
      await tx.update(users).set({ name: profile.name, lastName: profile.lastName }).where(eq(users.id, user.id));
    }
    await tx
      .insert(userIdentities)
      .values({ provider: profile.provider, subject: profile.subject, userId: user.id, email })
      .onConflictDoUpdate({
        target: [userIdentities.provider, userIdentities.subject],
        set: { email, lastUsedAt: sql`now()` },
      });
    return user.id;
  });
  const user = await findUserById(db, userId);
  if (user?.status !== 'active') throw new SignInRefused('account not active after signing in');
  return user;
}
