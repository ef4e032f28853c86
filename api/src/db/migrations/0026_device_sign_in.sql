-- Sign-in on shop-floor devices (docs/decisions/0086-device-sign-in.md): a client may use the device authorization
-- grant (RFC 8628) only when an administrator says so, and the code a person types is looked up by its value.

ALTER TABLE oidc_clients ADD COLUMN device_flow boolean NOT NULL DEFAULT false;

-- The user code a person types at /dispositivo, normalized (upper case, no dash), as the library stores it: one
-- lookup per typed code, never a scan of the payloads.
CREATE INDEX oidc_payloads_user_code_idx ON oidc_payloads ((payload ->> 'userCode')) WHERE kind = 'DeviceCode';
