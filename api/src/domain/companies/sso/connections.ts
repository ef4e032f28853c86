// A company's connection to its own OpenID Connect or SAML provider (Entra ID, Okta, AD FS, Google Workspace…): who may set it, the
// domains it answers for, its sealed secret, and the lookups the sign-in pages make by an email's domain.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { companies, companyDomains, companyIdentityProviders, companySignInDomains } from '../../../db/schema.js';
import { emailDomain, normalizeDomain } from '../../../lib/email-address.js';
import { HttpError } from '../../../lib/errors.js';
import { type AuditActor, recordAudit } from '../../audit/log.js';
import type { CompanyAccess } from '../access.js';
import { claimableDomain } from '../domains.js';
import { companyMessages } from '../messages.js';
import { discoverIdp, discoveryUrl, failureReason, issuerAllowed, privateNetworkRefused } from './discovery.js';
import { ssoMessages as M } from './messages.js';
import {
  certificateView,
  fetchIdpMetadata,
  METADATA_REFRESH_MS,
  MetadataUnreachable,
  metadataUrlAllowed,
  parseIdpMetadata,
  type SamlIdp,
  type SamlSpAddresses,
} from './saml-metadata.js';
import { openSecret, sealSecret } from './secret.js';

export interface ConnectionInput {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  dominios: string[];
  permitirContrasena: boolean;
}

export const noConnection = () => new HttpError(404, M.noConnection, 'SIN_PROVEEDOR');

const ofAnotherCompany = (domain: string) =>
  new HttpError(409, companyMessages.domainOfAnotherCompany(domain), 'DOMINIO_DE_OTRA_EMPRESA');

const isUniqueViolation = (error: unknown) =>
  ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code === '23505';

/**
 * The domains a connection may answer for, as stored: a platform administrator's call may name any domain no other
 * company proved (409 DOMINIO_DE_OTRA_EMPRESA), an owner only domains the company has already proved (409
 * DOMINIO_NO_VERIFICADO). Read-only: a refusal writes nothing.
 */
async function checkedDomains(db: Db, access: CompanyAccess, dominios: string[]): Promise<string[]> {
  const { companyId } = access;
  const domains = [
    ...new Set(dominios.map((domain) => (access.platform ? claimableDomain(domain) : normalizeDomain(domain)))),
  ];
  if (domains.length < 1 || domains.length > 20 || domains.some((domain) => !domain))
    throw new HttpError(400, M.domainsInvalid, 'DOMINIOS_INVALIDOS');
  if (access.platform) {
    const taken = await db
      .select({ domain: companyDomains.domain })
      .from(companyDomains)
      .where(
        and(
          inArray(companyDomains.domain, domains),
          isNotNull(companyDomains.verifiedAt),
          ne(companyDomains.companyId, companyId),
        ),
      );
    if (taken[0]) throw ofAnotherCompany(taken[0].domain);
  } else {
    const proved = await db
      .select({ domain: companyDomains.domain })
      .from(companyDomains)
      .where(
        and(
          eq(companyDomains.companyId, companyId),
          inArray(companyDomains.domain, domains),
          isNotNull(companyDomains.verifiedAt),
        ),
      );
    const missing = domains.find((domain) => !proved.some((row) => row.domain === domain));
    if (missing) throw new HttpError(409, M.domainNotProved(missing), 'DOMINIO_NO_VERIFICADO');
  }
  return domains;
}

/** The provider's row as written: an OpenID Connect client, or a SAML identity provider's metadata. */
type ProviderRow =
  | {
      protocol: 'oidc';
      issuer: string;
      clientId: string;
      clientSecretSealed: string;
      samlMetadata: null;
      samlMetadataUrl: null;
      samlMetadataReadAt: null;
    }
  | {
      protocol: 'saml';
      issuer: string;
      clientId: null;
      clientSecretSealed: null;
      samlMetadata: string;
      samlMetadataUrl: string | null;
      samlMetadataReadAt: Date | null;
    };

/**
 * Writes the company's one connection in a transaction: a platform administrator's call proves the domains for the
 * company first; the audit log records `details` with the domains.
 */
async function writeConnection(
  db: Db,
  actor: AuditActor,
  access: CompanyAccess,
  domains: string[],
  provider: ProviderRow,
  allowPassword: boolean,
  details: Record<string, unknown>,
): Promise<void> {
  const { companyId } = access;
  try {
    await db.transaction(async (tx) => {
      // The company's row, locked: two saves of one company run one after the other.
      await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
      if (access.platform) {
        for (const domain of domains) {
          const [row] = await tx
            .insert(companyDomains)
            .values({
              companyId,
              domain,
              verificationToken: randomBytes(24).toString('base64url'),
              verifiedAt: new Date(),
              verifiedBy: 'admin',
            })
            .onConflictDoUpdate({
              target: [companyDomains.companyId, companyDomains.domain],
              set: {
                verifiedAt: sql`coalesce(${companyDomains.verifiedAt}, now())`,
                verifiedBy: sql`coalesce(${companyDomains.verifiedBy}, 'admin')`,
              },
            })
            .returning({ verifiedBy: companyDomains.verifiedBy, verifiedAt: companyDomains.verifiedAt });
          if (!row) throw new Error('domain not saved');
        }
        await recordAudit(tx, actor, [
          {
            action: 'company.domain_verify',
            target: { type: 'company', id: companyId },
            details: { dominios: domains, by: 'admin', via: 'proveedor' },
            companyId,
          },
        ]);
      }
      await tx
        .insert(companyIdentityProviders)
        .values({ companyId, ...provider, allowPassword })
        .onConflictDoUpdate({
          target: companyIdentityProviders.companyId,
          set: { ...provider, allowPassword, lastError: null, lastErrorAt: null, updatedAt: sql`now()` },
        });
      await tx.delete(companySignInDomains).where(eq(companySignInDomains.companyId, companyId));
      await tx.insert(companySignInDomains).values(domains.map((domain) => ({ companyId, domain })));
      await recordAudit(tx, actor, [
        {
          action: 'company.provider_update',
          target: { type: 'company', id: companyId },
          details: { ...details, dominios: domains, permitirContrasena: allowPassword, fuente: 'administrador' },
          companyId,
        },
      ]);
    });
  } catch (error) {
    // Another company proved one of the domains meanwhile (the unique index on proved domains decides).
    if (isUniqueViolation(error)) throw ofAnotherCompany(domains.join(', '));
    throw error;
  }
}

/**
 * Saves the connection (the company's one) to an OpenID Connect provider: the domains as checkedDomains says.
 * Discovery is read before anything is written (400 PROVEEDOR_INALCANZABLE, also when the issuer leads to a loopback,
 * private or reserved address and `privateNetwork` does not allow it). The secret is required for a new OpenID Connect
 * connection (also one that was SAML) and kept when an update leaves it out.
 */
export async function saveConnection(
  db: Db,
  secretKey: Buffer,
  actor: AuditActor,
  access: CompanyAccess,
  input: ConnectionInput,
  privateNetwork: boolean,
): Promise<void> {
  const { companyId } = access;
  const issuer = input.issuer.trim();
  const clientId = input.clientId.trim();
  if (!issuerAllowed(issuer)) throw new HttpError(400, M.issuerInvalid, 'EMISOR_INVALIDO');
  if (input.dominios.length < 1 || input.dominios.length > 20)
    throw new HttpError(400, M.domainsInvalid, 'DOMINIOS_INVALIDOS');

  const [existing] = await db
    .select({ sealed: companyIdentityProviders.clientSecretSealed })
    .from(companyIdentityProviders)
    .where(eq(companyIdentityProviders.companyId, companyId));
  const newSecret = input.clientSecret?.trim() || undefined;
  const kept = existing?.sealed ?? null;
  if (!newSecret && !kept) throw new HttpError(400, M.secretRequired, 'SECRETO_OBLIGATORIO');

  // Checked before discovery, so a refusal costs no request to someone else's server.
  const domains = await checkedDomains(db, access, input.dominios);

  const secret = newSecret ?? openSecret(secretKey, companyId, kept ?? '');
  try {
    await discoverIdp(issuer, clientId, secret, privateNetwork);
  } catch (error) {
    if (privateNetworkRefused(error)) throw new HttpError(400, M.privateNetwork, 'PROVEEDOR_INALCANZABLE');
    throw new HttpError(400, M.unreachable(discoveryUrl(issuer), failureReason(error)), 'PROVEEDOR_INALCANZABLE');
  }

  const sealed = newSecret ? sealSecret(secretKey, companyId, newSecret) : (kept as string);
  await writeConnection(
    db,
    actor,
    access,
    domains,
    {
      protocol: 'oidc',
      issuer,
      clientId,
      clientSecretSealed: sealed,
      samlMetadata: null,
      samlMetadataUrl: null,
      samlMetadataReadAt: null,
    },
    input.permitirContrasena,
    { issuer, clientId, secretoCambiado: newSecret !== undefined },
  );
}

export interface SamlConnectionInput {
  /** The IdP's metadata XML, or… */
  metadata?: string;
  /** …the address it is read from (and read again once a day). */
  urlMetadatos?: string;
  dominios: string[];
  permitirContrasena: boolean;
}

/** The metadata read from `url` for a save: a Spanish 400 when it cannot be read. */
async function metadataFrom(url: string, privateNetwork: boolean): Promise<string> {
  if (!metadataUrlAllowed(url)) throw new HttpError(400, M.samlMetadataUrlInvalid, 'DIRECCION_METADATOS_INVALIDA');
  try {
    return await fetchIdpMetadata(url, privateNetwork);
  } catch (error) {
    if (!(error instanceof MetadataUnreachable)) throw error;
    if (error.privateNetwork) throw new HttpError(400, M.privateNetwork, 'PROVEEDOR_INALCANZABLE');
    throw new HttpError(400, M.samlMetadataUnreachable(url, error.reason), 'PROVEEDOR_INALCANZABLE');
  }
}

/**
 * Saves the connection (the company's one) to a SAML identity provider: its metadata pasted, or read from its address
 * through the outbound guard (400 PROVEEDOR_INALCANZABLE), then read (400 METADATOS_SAML_INVALIDOS,
 * SOLICITUDES_FIRMADAS), the domains as checkedDomains says; nothing is written on a refusal. A change of a SAML
 * connection that gives neither keeps the stored metadata and its address, as an OpenID Connect change keeps the
 * secret: GET never shows the XML, so the panel cannot send it back. A new one (also one that was OpenID Connect)
 * needs one of them (400 METADATOS_SAML_OBLIGATORIOS).
 */
export async function saveSamlConnection(
  db: Db,
  actor: AuditActor,
  access: CompanyAccess,
  input: SamlConnectionInput,
  privateNetwork: boolean,
): Promise<void> {
  const url = input.urlMetadatos?.trim() || null;
  const pasted = input.metadata;
  if (url !== null && pasted !== undefined) throw new HttpError(400, M.samlMetadataSource, 'METADATOS_SAML_INVALIDOS');
  if (pasted !== undefined) parseIdpMetadata(pasted);
  const kept =
    url === null && pasted === undefined
      ? (
          await db
            .select({
              samlMetadata: companyIdentityProviders.samlMetadata,
              samlMetadataUrl: companyIdentityProviders.samlMetadataUrl,
              samlMetadataReadAt: companyIdentityProviders.samlMetadataReadAt,
            })
            .from(companyIdentityProviders)
            .where(
              and(
                eq(companyIdentityProviders.companyId, access.companyId),
                eq(companyIdentityProviders.protocol, 'saml'),
              ),
            )
        )[0]
      : undefined;
  if (url === null && pasted === undefined && !kept?.samlMetadata)
    throw new HttpError(400, M.samlMetadataRequired, 'METADATOS_SAML_OBLIGATORIOS');
  const domains = await checkedDomains(db, access, input.dominios);

  let source: { samlMetadata: string; samlMetadataUrl: string | null; samlMetadataReadAt: Date | null };
  if (kept?.samlMetadata)
    source = {
      samlMetadata: kept.samlMetadata,
      samlMetadataUrl: kept.samlMetadataUrl,
      samlMetadataReadAt: kept.samlMetadataReadAt,
    };
  else if (url !== null)
    source = {
      samlMetadata: await metadataFrom(url, privateNetwork),
      samlMetadataUrl: url,
      samlMetadataReadAt: new Date(),
    };
  else source = { samlMetadata: pasted as string, samlMetadataUrl: null, samlMetadataReadAt: null };
  const idp = parseIdpMetadata(source.samlMetadata);
  await writeConnection(
    db,
    actor,
    access,
    domains,
    { protocol: 'saml', issuer: idp.entityId, clientId: null, clientSecretSealed: null, ...source },
    input.permitirContrasena,
    {
      tipo: 'saml',
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      ...(source.samlMetadataUrl && { urlMetadatos: source.samlMetadataUrl }),
      metadatosCambiados: kept === undefined,
    },
  );
}

/**
 * Reads a connection's metadata again from its address: kept when it still reads as an IdP's metadata of the same
 * entity, else the stored one stays and the failure is the connection's last error.
 */
export async function refreshSamlMetadata(db: Db, companyId: number, url: string, privateNetwork: boolean) {
  let idp: SamlIdp;
  let metadata: string;
  try {
    metadata = await fetchIdpMetadata(url, privateNetwork);
    idp = parseIdpMetadata(metadata);
  } catch (error) {
    const reason =
      error instanceof MetadataUnreachable ? error.reason : error instanceof HttpError ? error.message : 'no válidos';
    await recordConnectionError(db, companyId, M.errorSamlMetadataRefresh(url, reason));
    return;
  }
  await db
    .update(companyIdentityProviders)
    .set({ samlMetadata: metadata, samlMetadataReadAt: new Date() })
    .where(
      and(
        eq(companyIdentityProviders.companyId, companyId),
        eq(companyIdentityProviders.samlMetadataUrl, url),
        eq(companyIdentityProviders.issuer, idp.entityId),
      ),
    );
}

/** The domains the company's connection answers for, in alphabetical order. */
async function domainsOf(db: Db, companyId: number): Promise<string[]> {
  const rows = await db
    .select({ domain: companySignInDomains.domain })
    .from(companySignInDomains)
    .where(eq(companySignInDomains.companyId, companyId))
    .orderBy(asc(companySignInDomains.domain));
  return rows.map((row) => row.domain);
}

/** The connection as its administrators read it (never its secret): OpenID Connect or SAML, by `tipo`. */
export async function connectionView(db: Db, companyId: number, redirectUri: string, saml: SamlSpAddresses) {
  const [row] = await db
    .select({
      protocol: companyIdentityProviders.protocol,
      issuer: companyIdentityProviders.issuer,
      clientId: companyIdentityProviders.clientId,
      samlMetadata: companyIdentityProviders.samlMetadata,
      samlMetadataUrl: companyIdentityProviders.samlMetadataUrl,
      allowPassword: companyIdentityProviders.allowPassword,
      lastError: companyIdentityProviders.lastError,
      lastErrorAt: companyIdentityProviders.lastErrorAt,
      lastSignInAt: companyIdentityProviders.lastSignInAt,
      updatedAt: companyIdentityProviders.updatedAt,
    })
    .from(companyIdentityProviders)
    .where(eq(companyIdentityProviders.companyId, companyId));
  if (!row) throw noConnection();
  const domains = await domainsOf(db, companyId);
  const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);
  const state = {
    ultimoError: row.lastError,
    ultimoErrorEn: iso(row.lastErrorAt),
    ultimoAcceso: iso(row.lastSignInAt),
    actualizado: new Date(row.updatedAt).toISOString(),
  };
  if (row.protocol === 'saml') {
    const idp = parseIdpMetadata(row.samlMetadata ?? '');
    return {
      tipo: 'saml' as const,
      dominios: domains,
      permitirContrasena: row.allowPassword,
      ...saml,
      idp: {
        entityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        certificados: idp.certificates.map(certificateView),
        urlMetadatos: row.samlMetadataUrl,
      },
      ...state,
    };
  }
  return {
    tipo: 'oidc' as const,
    issuer: row.issuer,
    clientId: row.clientId ?? '',
    dominios: domains,
    permitirContrasena: row.allowPassword,
    redirectUri,
    ...state,
  };
}

/** Removes the connection; the links of its people stay (connecting again keeps them). */
export async function removeConnection(db: Db, actor: AuditActor, companyId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(companyIdentityProviders)
      .where(eq(companyIdentityProviders.companyId, companyId))
      .returning({
        protocol: companyIdentityProviders.protocol,
        issuer: companyIdentityProviders.issuer,
        clientId: companyIdentityProviders.clientId,
      });
    if (!removed[0]) throw noConnection();
    await recordAudit(tx, actor, [
      {
        action: 'company.provider_remove',
        target: { type: 'company', id: companyId },
        details: {
          issuer: removed[0].issuer,
          ...(removed[0].protocol === 'saml' ? { tipo: 'saml' } : { clientId: removed[0].clientId }),
          fuente: 'administrador',
        },
        companyId,
      },
    ]);
  });
}

/** Keeps a sign-in's failure for the company's administrators (a Spanish text). */
export async function recordConnectionError(db: Db, companyId: number, text: string): Promise<void> {
  await db
    .update(companyIdentityProviders)
    .set({ lastError: text.slice(0, 500), lastErrorAt: new Date() })
    .where(eq(companyIdentityProviders.companyId, companyId));
}

/**
 * The active company whose connection answers for the email's domain: one query on the unique domain index. What the
 * sign-in page asks (GET /auth/empresa/acceso) and what a password sign-in checks first.
 */
export async function connectionForEmail(
  db: Db,
  email: string,
): Promise<{ companyId: number; name: string; allowPassword: boolean } | undefined> {
  const domain = emailDomain(email);
  if (!domain) return undefined;
  const [row] = await db
    .select({
      companyId: companies.id,
      name: companies.name,
      allowPassword: companyIdentityProviders.allowPassword,
    })
    .from(companySignInDomains)
    .innerJoin(companyIdentityProviders, eq(companyIdentityProviders.companyId, companySignInDomains.companyId))
    .innerJoin(companies, eq(companies.id, companySignInDomains.companyId))
    .where(and(eq(companySignInDomains.domain, domain), eq(companies.status, 'active')));
  return row;
}

/**
 * Everything a sign-in needs of a company's connection: for OpenID Connect with the secret opened, for SAML with the
 * provider read from its metadata; undefined when there is none.
 */
export async function signInConnection(db: Db, secretKey: Buffer, companyId: number) {
  const [row] = await db
    .select({
      companyId: companies.id,
      name: companies.name,
      status: companies.status,
      protocol: companyIdentityProviders.protocol,
      issuer: companyIdentityProviders.issuer,
      clientId: companyIdentityProviders.clientId,
      sealed: companyIdentityProviders.clientSecretSealed,
      samlMetadata: companyIdentityProviders.samlMetadata,
      samlMetadataUrl: companyIdentityProviders.samlMetadataUrl,
      samlMetadataReadAt: companyIdentityProviders.samlMetadataReadAt,
      updatedAt: companyIdentityProviders.updatedAt,
    })
    .from(companyIdentityProviders)
    .innerJoin(companies, eq(companies.id, companyIdentityProviders.companyId))
    .where(eq(companyIdentityProviders.companyId, companyId));
  if (!row) return undefined;
  const { sealed, samlMetadata, samlMetadataUrl, samlMetadataReadAt, clientId, ...rest } = row;
  const domains = await domainsOf(db, companyId);
  if (row.protocol === 'saml')
    return {
      ...rest,
      protocol: 'saml' as const,
      domains,
      saml: parseIdpMetadata(samlMetadata ?? ''),
      // When the metadata is read from an address and due to be read again.
      metadataUrlDue:
        samlMetadataUrl && Date.now() - new Date(samlMetadataReadAt ?? 0).getTime() > METADATA_REFRESH_MS
          ? samlMetadataUrl
          : null,
    };
  return {
    ...rest,
    protocol: 'oidc' as const,
    domains,
    clientId: clientId ?? '',
    clientSecret: openSecret(secretKey, companyId, sealed ?? ''),
  };
}
export type SignInConnection = NonNullable<Awaited<ReturnType<typeof signInConnection>>>;
export type OidcSignInConnection = Extract<SignInConnection, { protocol: 'oidc' }>;
export type SamlSignInConnection = Extract<SignInConnection, { protocol: 'saml' }>;
