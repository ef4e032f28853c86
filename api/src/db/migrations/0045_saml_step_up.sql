-- What a SAML app asked of the sign-in, kept with its request (docs/decisions/0138-saml-step-up.md): ForceAuthn, a
-- sign-in made after the request arrived; and a RequestedAuthnContext naming REFEDS MFA, a second factor proved.
ALTER TABLE saml_requests ADD COLUMN force_authn boolean NOT NULL DEFAULT false;
ALTER TABLE saml_requests ADD COLUMN second_factor_asked boolean NOT NULL DEFAULT false;
