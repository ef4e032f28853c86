-- What a SAML app's RequestedAuthnContext asked, kept whole with its request (docs/decisions/0149-step-up-at-every-door.md):
-- the comparison (SAML Core 3.3.2.2.1) and its classes in the app's order, judged against the person's session when
-- the request is answered. A request without one keeps no comparison. The yes-or-no column it replaces said only
-- whether REFEDS MFA was named exact or minimum, which is what a waiting request of it asked.
ALTER TABLE saml_requests ADD COLUMN authn_comparison text
  CHECK (authn_comparison IN ('exact', 'minimum', 'better', 'maximum'));
ALTER TABLE saml_requests ADD COLUMN authn_classes text[] NOT NULL DEFAULT '{}';
UPDATE saml_requests SET authn_comparison = 'exact', authn_classes = ARRAY['https://refeds.org/profile/mfa']
  WHERE second_factor_asked;
ALTER TABLE saml_requests DROP COLUMN second_factor_asked;
