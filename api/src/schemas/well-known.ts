import { Type } from 'typebox';

/** One public key of the JWKS: ES256 on P-256, as the partner apps verify tokens with it. */
export const Jwk = Type.Object(
  {
    kty: Type.String(),
    crv: Type.String(),
    x: Type.String(),
    y: Type.String(),
    kid: Type.String(),
    alg: Type.String(),
    use: Type.String(),
  },
  { additionalProperties: false },
);
