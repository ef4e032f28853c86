-- A token bound to the provider session (the kind a single-page app gets without offline_access) is answered from
-- the session memory with that session, kept by its uid (domain/identity-provider/kept-token.ts): a provider session
-- that changes or goes (signed in again, logged out, ended with its portal session) notifies its account, as its
-- tokens and grants do (0018). A session saved before anyone signed in has no account and notifies nobody.
DROP TRIGGER oidc_payloads_memory_notify ON oidc_payloads;
CREATE TRIGGER oidc_payloads_memory_notify AFTER UPDATE OR DELETE ON oidc_payloads
  FOR EACH ROW WHEN (OLD.kind IN ('AccessToken', 'Grant', 'Session'))
  EXECUTE FUNCTION oidc_memory_notify();
