-- Why a trusted device stopped counting (docs/decisions/0151-why-a-trusted-device-stopped.md): the person is told at
-- the sign-in that asks the code again. A device is ended, no longer deleted, with its reason; the row goes when its
-- cookie does (30 days after the trust), and until then the sign-in that brings the cookie can say why.
ALTER TABLE trusted_devices ADD COLUMN ended_at timestamptz;
ALTER TABLE trusted_devices ADD COLUMN end_reason text CHECK (end_reason IN (
  'quitado', 'factor_quitado', 'sesiones_cerradas', 'contrasena', 'suspension', 'rol', 'cuenta'));
ALTER TABLE trusted_devices ADD CONSTRAINT trusted_devices_ended_with_reason
  CHECK ((ended_at IS NULL) = (end_reason IS NULL));

-- Every change that bumps the account's token version ends its trusted devices, saying which it was: the password
-- (changed or reset), a suspension, the role (an administrator no longer), or else the account's sessions ended by
-- its company's directory.
CREATE FUNCTION trusted_devices_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE trusted_devices SET ended_at = now(), end_reason = CASE
      WHEN NEW.password_hash IS DISTINCT FROM OLD.password_hash THEN 'contrasena'
      WHEN NEW.status = 'suspended' AND OLD.status <> 'suspended' THEN 'suspension'
      WHEN NEW.role IS DISTINCT FROM OLD.role THEN 'rol'
      ELSE 'cuenta'
    END
    WHERE user_id = NEW.id AND ended_at IS NULL;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_trusted_devices_end AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD.token_version IS DISTINCT FROM NEW.token_version)
  EXECUTE FUNCTION trusted_devices_account_changed();

-- Devices already dead by the token version keep the general reason.
UPDATE trusted_devices d SET ended_at = now(), end_reason = 'cuenta'
  FROM users u WHERE u.id = d.user_id AND u.token_version <> d.token_version;
