-- The subject (`sub`) a partner app knows a person by (docs/decisions/0083-subjects.md). The account id counts the
-- accounts and is the same for every app: a person now also has an opaque public id, and each client says which
-- identifier it gets.

-- A random identifier per account, made by the database for every existing and new row (gen_random_uuid is core from
-- PostgreSQL 13, and PGlite has it), never reused and never derived from the id.
ALTER TABLE users ADD COLUMN public_id uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE users ADD CONSTRAINT users_public_id_key UNIQUE (public_id);

-- What a client's `sub` is: the account id ('numerico', what the apps registered before this migration already stored,
-- so they keep it), the public id ('opaco', the same for every such app), or an identifier of that client alone
-- ('por_cliente': an HMAC of the public id under the client's own salt). The salt is made by the API the first time a
-- client becomes 'por_cliente' and never changes after, so its apps' identifiers stay.
ALTER TABLE oidc_clients
  ADD COLUMN sujeto text NOT NULL DEFAULT 'numerico' CHECK (sujeto IN ('numerico', 'opaco', 'por_cliente')),
  ADD COLUMN subject_salt text;
ALTER TABLE oidc_clients ALTER COLUMN sujeto SET DEFAULT 'opaco';

-- A back-channel logout is sent after the change that queued it, maybe after the account is deleted (the deletion
-- queues one): the account's public id is kept with it, read as it is queued (the deletion's trigger runs before the
-- row goes), so the logout token names the person by the subject the app knows.
ALTER TABLE oidc_logout_deliveries ADD COLUMN public_id uuid;
UPDATE oidc_logout_deliveries d SET public_id = u.public_id FROM users u WHERE u.id::text = d.account_id;

CREATE FUNCTION oidc_logout_delivery_public_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.public_id IS NULL THEN
    SELECT public_id INTO NEW.public_id FROM users WHERE id::text = NEW.account_id;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER oidc_logout_deliveries_public_id BEFORE INSERT ON oidc_logout_deliveries
  FOR EACH ROW EXECUTE FUNCTION oidc_logout_delivery_public_id();
