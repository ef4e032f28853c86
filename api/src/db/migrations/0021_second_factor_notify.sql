-- A company may count its seats only for members with a second factor (domain/apps-and-plans/effective-plans.ts reads
-- a confirmed TOTP authenticator or a passkey): setting one up or removing it changes that person's plan, so every
-- instance's session state is told, like a change to user_plans (0011_session_notify.sql). A TOTP's step counter and
-- a passkey's use counter move at each sign-in and change nothing of it: they notify nobody. Recovery codes are not
-- a factor of their own (status.ts) and are not read.
CREATE TRIGGER totp_factors_session_notify AFTER INSERT OR DELETE ON totp_factors
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER totp_factors_update_session_notify AFTER UPDATE ON totp_factors
  FOR EACH ROW
  WHEN ((OLD.user_id, OLD.confirmed_at) IS DISTINCT FROM (NEW.user_id, NEW.confirmed_at))
  EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER passkeys_session_notify AFTER INSERT OR DELETE ON passkeys
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
CREATE TRIGGER passkeys_update_session_notify AFTER UPDATE OF user_id ON passkeys
  FOR EACH ROW EXECUTE FUNCTION portal_session_notify();
