/**
 * The API's request and response shapes as TypeScript types, for the browser packages (`@portal/api/types`,
 * type-only imports): one source, the TypeBox schemas the API validates, serializes and documents (/docs) with.
 * Only schema modules are imported here, never a route or the database client, so the browser's type check reads no
 * server code.
 */
import type { Static } from 'typebox';
import type { AuditEntry as AuditEntrySchema, CreateAppBody, Dashboard as DashboardSchema } from './schemas/admin.js';
import type { AppWithPlans as AppWithPlansSchema, PlanWithPrices } from './schemas/apps-with-plans.js';
import type { BillingPrice as BillingPriceSchema } from './schemas/billing.js';
import type { ChangePlanBody, UserAppPlanInfo as UserAppPlanInfoSchema } from './schemas/user-plans.js';
import type {
  UserListItem,
  UserListQuery as UserListQuerySchema,
  UserPage as UserPageSchema,
  UserStats as UserStatsSchema,
  UserStatusSchema,
  VerifyEmailsResponse,
} from './schemas/users.js';
import type { App as AppSchema, AppTag as AppTagSchema } from './schemas/apps.js';
import type {
  Company as CompanySchema,
  RulesOfMyCompany as RulesOfMyCompanySchema,
  CompanyListItem as CompanyListItemSchema,
  CompanySettingsBody,
  Licence as LicenceSchema,
  LicenceChangeBody,
  UpdateCompanyBody,
} from './schemas/companies.js';
import type { CompanyDomain as CompanyDomainSchema } from './schemas/company-domains.js';
import type {
  ConnectionTestResult as ConnectionTestResultSchema,
  CreatedSetupLink as CreatedSetupLinkSchema,
  SetupLink as SetupLinkSchema,
  SetupPage as SetupPageSchema,
} from './schemas/company-setup-links.js';
import type {
  CompanyAccess as CompanyAccessSchema,
  CompanyLinked as CompanyLinkedSchema,
  SamlServiceProvider as SamlServiceProviderSchema,
  SsoAddresses as SsoAddressesSchema,
  SsoConnection as SsoConnectionSchema,
  SsoConnectionAnswer as SsoConnectionAnswerSchema,
  SsoConnectionBody,
  SsoConnectionSaved as SsoConnectionSavedSchema,
  SsoOidcConnection as SsoOidcConnectionSchema,
  SsoSamlBody as SsoSamlBodySchema,
  SsoSamlConnection as SsoSamlConnectionSchema,
} from './schemas/company-sso.js';
import type {
  AuditStream as AuditStreamSchema,
  AuditStreamTestResult as AuditStreamTestResultSchema,
  CreateAuditStreamBody,
  UpdateAuditStreamBody,
} from './schemas/audit-streams.js';
import type {
  AppRole as AppRoleSchema,
  CompanyAppRoles as CompanyAppRolesSchema,
  CreateAppRoleBody,
  HeldRoles as HeldRolesSchema,
  MemberAppRoles as MemberAppRolesSchema,
  UpdateAppRoleBody,
} from './schemas/app-roles.js';
import type {
  CreatedScimToken as CreatedScimTokenSchema,
  GroupRule as GroupRuleSchema,
  GroupRuleBody as GroupRuleBodySchema,
  WaitingPerson as WaitingPersonSchema,
  ScimLogEntry as ScimLogEntrySchema,
  ScimToken as ScimTokenSchema,
  ScimTokenList as ScimTokenListSchema,
} from './schemas/scim.js';
import type {
  CompanyRoleSchema,
  Member as MemberSchema,
  MemberPage,
  Seat as SeatSchema,
  SeatListItem,
  SeatPage,
  SeatReportRow as SeatReportRowSchema,
} from './schemas/company-members.js';
import type {
  AcceptBody,
  Accepted as AcceptedSchema,
  Invitation as InvitationSchema,
  InvitationListAnswer,
  InvitationListBody,
  OwnInvitation as OwnInvitationSchema,
} from './schemas/company-invitations.js';
import type {
  CurrentUser,
  EditUserBody,
  RegisterAnswer as RegisterAnswerSchema,
  RegisteredByInvitation as RegisteredByInvitationSchema,
  PlanCompany as PlanCompanySchema,
  PlanOrigin as PlanOriginSchema,
  Session as SessionSchema,
  UserCompany as UserCompanySchema,
  UserPlan as UserPlanSchema,
} from './schemas/auth.js';
import type {
  CeremonyOptions as CeremonyOptionsSchema,
  Passkey as PasskeySchema,
  RecoveryCodes as RecoveryCodesSchema,
  SecondStepRequired as SecondStepRequiredSchema,
  SecurityStatus as SecurityStatusSchema,
  TotpSetup as TotpSetupSchema,
  TrustedDevice as TrustedDeviceSchema,
} from './schemas/security.js';
import type { ConfiguredProviders as ConfiguredProvidersSchema } from './schemas/oauth.js';
import type { Session as PortalSessionSchema } from './schemas/sessions.js';
import type {
  AuthorizedApp as AuthorizedAppSchema,
  DeviceAnswered as DeviceAnsweredSchema,
  DeviceRequestView,
  InteractionNext,
  InteractionView,
  OidcClient as OidcClientSchema,
  OidcClientBody,
  OidcClientCreated as OidcClientCreatedSchema,
  OidcClientSecret as OidcClientSecretSchema,
} from './schemas/identity-provider.js';
import type {
  SamlApp as SamlAppSchema,
  SamlAppBody,
  SamlAppChangeBody,
  SamlAppCreated as SamlAppCreatedSchema,
} from './schemas/saml-idp.js';
import type {
  PartnerDelivery as PartnerDeliverySchema,
  PartnerDeliveryPage as PartnerDeliveryPageSchema,
} from './schemas/partner-event-deliveries.js';
import type {
  Subscription as PartnerSubscriptionSchema,
  SubscriptionBody,
  SubscriptionCreated,
  SubscriptionSecret,
} from './schemas/partner-event-subscriptions.js';

/** `GET /auth/user` and the user of every sign-in answer. */
export type User = Static<typeof CurrentUser>;
export type UserPlan = Static<typeof UserPlanSchema>;
/** Where a plan comes from ('propio' | 'empresa'), and the company of a seat (null for the own plan). */
export type PlanOrigin = Static<typeof PlanOriginSchema>;
export type PlanCompany = Static<typeof PlanCompanySchema>;
/** A company of the person (`User.empresas`). */
export type UserCompany = Static<typeof UserCompanySchema>;
export type UserStatus = Static<typeof UserStatusSchema>;
/** What `POST /auth/login` and the other sign-ins answer. */
export type Session = Static<typeof SessionSchema>;
/** One open portal session (`GET /auth/sessions`, `GET /admin/users/{id}/sessions`). */
export type PortalSession = Static<typeof PortalSessionSchema>;
/** The 403 of `POST /auth/login` for an account with a second factor (the ticket of the second step). */
export type SecondStepRequired = Static<typeof SecondStepRequiredSchema>;
/** `GET /auth/seguridad`. */
export type SecurityStatus = Static<typeof SecurityStatusSchema>;
export type TotpSetup = Static<typeof TotpSetupSchema>;
export type RecoveryCodes = Static<typeof RecoveryCodesSchema>;
export type Passkey = Static<typeof PasskeySchema>;
/** A trusted device as 'Seguridad' lists it (`GET /auth/dispositivos-confiables`). */
export type TrustedDevice = Static<typeof TrustedDeviceSchema>;
/** WebAuthn options for @simplewebauthn/browser, with the ceremony id to send back. */
export type CeremonyOptions = Static<typeof CeremonyOptionsSchema>;

/** `GET /auth/social/proveedores`: whether Google and Apple are configured. */
export type ConfiguredProviders = Static<typeof ConfiguredProvidersSchema>;

export type App = Static<typeof AppSchema>;
export type AppTag = Static<typeof AppTagSchema>;
export type Plan = Static<typeof PlanWithPrices>;
export type AppWithPlans = Static<typeof AppWithPlansSchema>;
/** The editable fields of an app (`POST /apps/register`; `PUT /apps/update/{id}` takes any of them). */
export type AppInput = Static<typeof CreateAppBody>;

/** A row of the admin's user list (`GET /user/listar`) and the answer of a status change. */
export type AdminUser = Static<typeof UserListItem>;
/** What an administrator may change of a user (`PUT /auth/editar/{id}`): any of the fields. */
export type UserEdit = Static<typeof EditUserBody>;
/** A page of `GET /user/listar`, with `totalCapped` when a text filter matched more than the count's cap. */
export type UserPage = Static<typeof UserPageSchema>;
export type UserListQuery = Partial<Static<typeof UserListQuerySchema>>;
export type UserStats = Static<typeof UserStatsSchema>;
export type VerifiedEmails = Static<typeof VerifyEmailsResponse>;
export type UserAppPlanInfo = Static<typeof UserAppPlanInfoSchema>;
export type PlanChange = Static<typeof ChangePlanBody>;
export type DashboardData = Static<typeof DashboardSchema>;
export type AuditEntry = Static<typeof AuditEntrySchema>;
export type BillingPrice = Static<typeof BillingPriceSchema>;

/** A page of a list (`data`, `total`, `totalPages`, `currentPage`, `hasNextPage`, `count`). */
export interface Paged<T> {
  data: T[];
  total: number;
  totalPages: number;
  currentPage: number;
  hasNextPage: boolean;
  count: number;
}

/** What an audit row says was done (`action`); the panel names each in Spanish. */
export type { AuditAction } from './domain/audit/actions.js';

/** `GET /oidc/interaccion/{uid}/detalles`: the app asking and what the portal's /autorizar page must do. */
export type InteractionDetails = Static<typeof InteractionView>;
/** What `continuar` and `cancelar` answer: where the browser goes next (back to the app through the API). */
export type InteractionRedirect = Static<typeof InteractionNext>;
/** `POST /oidc/dispositivo/consultar`: which app a device's code is for, what it asks and from where. */
export type DeviceRequest = Static<typeof DeviceRequestView>;
/** `POST /oidc/dispositivo/confirmar`: the person's answer, as recorded. */
export type DeviceAnswered = Static<typeof DeviceAnsweredSchema>;
/** `GET /auth/aplicaciones`: a third-party app the person allowed. */
export type AuthorizedApp = Static<typeof AuthorizedAppSchema>;
/** The rules of one of the signed-in person's companies (GET /auth/reglas-empresa). */
export type RulesOfMyCompany = Static<typeof RulesOfMyCompanySchema>;
/** What an app may see or do: the scope and how the person reads it. */
export type OidcPermission = AuthorizedApp['permisos'][number];
/** An OpenID Connect client as the admin calls answer it (never its secret). */
export type OidcClient = Static<typeof OidcClientSchema>;
/** What an app's `sub` is: the account id, the account's opaque id, or an identifier of that app alone. */
export type OidcSubjectKind = OidcClient['sujeto'];
/** The body of `POST` and `PUT /admin/clientes-oidc`, as the panel sends it: every field. */
export type OidcClientInput = Required<Omit<Static<typeof OidcClientBody>, 'sujeto' | 'dispositivos'>> & {
  sujeto: OidcSubjectKind;
} & Pick<Static<typeof OidcClientBody>, 'dispositivos'>;
export type OidcClientCreated = Static<typeof OidcClientCreatedSchema>;
export type OidcClientSecret = Static<typeof OidcClientSecretSchema>;
export type OidcScope = OidcClient['scopes'][number];
/** A SAML app as `GET /admin/aplicaciones-saml` answers it: everything but its name and app read from its metadata. */
export type SamlApp = Static<typeof SamlAppSchema>;
/** The body of `POST /admin/aplicaciones-saml`; a `PUT` may leave `metadata` out to keep the stored one. */
export type SamlAppInput = Static<typeof SamlAppBody>;
export type SamlAppChange = Static<typeof SamlAppChangeBody>;
/** What registering a SAML app answers. */
export type SamlAppCreated = Static<typeof SamlAppCreatedSchema>;
/** One delivery of an event to a subscription's receiver, and a page of them (by cursor: `siguiente`). */
export type PartnerDelivery = Static<typeof PartnerDeliverySchema>;
export type PartnerDeliveryPage = Static<typeof PartnerDeliveryPageSchema>;
/** What a partner app may subscribe to ('usuario.suspendido', 'plan.vencido', …). */
export type PartnerEventType = PartnerDelivery['evento'];
/** A client's event subscription as the admin calls answer it (never its secret). */
export type PartnerSubscription = Static<typeof PartnerSubscriptionSchema>;
/** The body of `POST /admin/clientes-oidc/{clientId}/suscripciones`, as the panel sends it. */
export type PartnerSubscriptionInput = Omit<Static<typeof SubscriptionBody>, 'eventos'> & {
  eventos: PartnerEventType[];
};
/** What creating a subscription and rotating its secret answer: the secret (`whsec_…`), shown this once. */
export type PartnerSubscriptionCreated = Static<typeof SubscriptionCreated>;
export type PartnerSubscriptionSecret = Static<typeof SubscriptionSecret>;

/** `POST /auth/register` with `codigoInvitacion`: the account is active, a member, and signed in. */
export type RegisteredByInvitation = Static<typeof RegisteredByInvitationSchema>;
/** What `POST /auth/register` answers: a pending registration, or one proved by an invitation. */
export type RegisterAnswer = Static<typeof RegisterAnswerSchema>;
/** A company's invitation (`/empresas/{id}/invitaciones`). */
export type CompanyInvitation = Static<typeof InvitationSchema>;
/** `POST /empresas/{id}/invitaciones/lote`: the rows sent, and a result per row in the order sent. */
export type InvitationListRow = Static<typeof InvitationListBody>['filas'][number];
export type InvitationListResult = Static<typeof InvitationListAnswer>['resultados'][number];
/** `GET /empresas/invitaciones/mias`: a pending invitation to the signed-in person's address. */
export type OwnInvitation = Static<typeof OwnInvitationSchema>;
/** The body of `POST /empresas/invitaciones/aceptar` and its answer. */
export type AcceptInvitation = Static<typeof AcceptBody>;
export type InvitationAccepted = Static<typeof AcceptedSchema>;

/** A role inside a company: 'propietario', 'administrador' or 'miembro'. */
export type CompanyRole = Static<typeof CompanyRoleSchema>;
/** A row of `GET /admin/empresas` (platform administrators). */
export type CompanyListItem = Static<typeof CompanyListItemSchema>;
/** `GET /empresas/{id}`, and what renaming, suspending or changing the settings answer. */
export type Company = Static<typeof CompanySchema>;
/** The body of `PATCH /admin/empresas/{id}` (rename, suspend, reactivate). */
export type CompanyUpdate = Static<typeof UpdateCompanyBody>;
/** The body of `PATCH /empresas/{id}/ajustes`. */
export type CompanySettings = Static<typeof CompanySettingsBody>;
/** A company's licence of an app (`GET /empresas/{id}/licencias`, and selling or changing one). */
export type Licence = Static<typeof LicenceSchema>;
/** The body of `PUT /admin/empresas/{id}/licencias/{idApp}`; selling one adds `idApp`. */
export type LicenceInput = Static<typeof LicenceChangeBody>;
/** A member of a company and a page of them (by cursor: `siguiente`). */
export type CompanyMember = Static<typeof MemberSchema>;
export type CompanyMemberPage = Static<typeof MemberPage>;
/** An assigned seat as the seat list shows it, a page of them, and what an assignment answers. */
export type CompanySeat = Static<typeof SeatListItem>;
export type CompanySeatPage = Static<typeof SeatPage>;
export type SeatAssigned = Static<typeof SeatSchema>;
/** A row of `GET /empresas/{id}/informe-puestos`. */
export type SeatReportRow = Static<typeof SeatReportRowSchema>;
/** A company's email domain, proved or waiting for its TXT record. */
export type CompanyDomain = Static<typeof CompanyDomainSchema>;
/** The company's own sign-in as `GET /empresas/{id}/proveedor` shows it (never the secret). */
/**
 * The OpenID Connect connection as GET /empresas/:id/proveedor answers it. The API always sends `tipo: 'oidc'`; a
 * reader that only knows OpenID Connect need not name it (CompanyProviderView is the exact answer).
 */
export type CompanyProvider = Omit<Static<typeof SsoOidcConnectionSchema>, 'tipo'> & { tipo?: 'oidc' };
/** The SAML connection as GET /empresas/:id/proveedor answers it (`tipo: 'saml'`). */
export type CompanySamlProvider = Static<typeof SsoSamlConnectionSchema>;
/** GET /empresas/:id/proveedor's answer: either connection, by `tipo`. */
export type CompanyProviderView = Static<typeof SsoConnectionSchema>;
/** The body of `PUT /empresas/{id}/proveedor` and `PUT /admin/empresas/{id}/proveedor`, and what they answer. */
export type CompanyProviderInput = Static<typeof SsoConnectionBody>;
export type CompanyProviderSaved = Static<typeof SsoConnectionSavedSchema>;
export type CompanySamlProviderInput = Static<typeof SsoSamlBodySchema>;
/** The portal's SAML service provider for a company (PUT …/proveedor with `tipo: 'saml'` answers it). */
export type CompanySamlServiceProvider = Static<typeof SamlServiceProviderSchema>;
/** PUT …/proveedor's answer: `{ redirectUri }` for OpenID Connect, the service provider for SAML. */
export type CompanyProviderAnswer = Static<typeof SsoConnectionAnswerSchema>;
/** GET /empresas/:id/proveedor/redireccion's answer. */
export type CompanyProviderAddresses = Static<typeof SsoAddressesSchema>;
/** `GET /auth/empresa/acceso`: the company whose own sign-in answers for an address's domain. */
export type CompanyAccess = Static<typeof CompanyAccessSchema>;
/** `POST /auth/empresa/vincular`: the company the account is now linked to. */
export type CompanyLinked = Static<typeof CompanyLinkedSchema>;
/** A token of the company's directory (SCIM), the list with the base URL, and a token just made (shown once). */
export type ScimToken = Static<typeof ScimTokenSchema>;
export type ScimTokenList = Static<typeof ScimTokenListSchema>;
/** A company's SIEM destination as GET /empresas/:id/flujos-auditoria lists it, and what creates or changes one. */
export type AuditStream = Static<typeof AuditStreamSchema>;
export type AuditStreamInput = Static<typeof CreateAuditStreamBody>;
export type AuditStreamChange = Static<typeof UpdateAuditStreamBody>;
export type AuditStreamTestResult = Static<typeof AuditStreamTestResultSchema>;
export type ScimTokenCreated = Static<typeof CreatedScimTokenSchema>;
/** A company's setup link as its owners list it, the one just made (its URL shown once), and its page's data. */
export type SetupLink = Static<typeof SetupLinkSchema>;
export type CreatedSetupLink = Static<typeof CreatedSetupLinkSchema>;
export type SetupPage = Static<typeof SetupPageSchema>;
/** What 'Probar conexión' found: who came back from the company's provider and what would stop their sign-in. */
export type ConnectionTestResult = Static<typeof ConnectionTestResultSchema>;
/** One request of the company's directory, as the API logged it. */
export type ScimRequest = Static<typeof ScimLogEntrySchema>;
/** A rule tying a directory group to seats of an app and/or a role, what adds one, and a person waiting for a seat. */
export type GroupRule = Static<typeof GroupRuleSchema>;
export type GroupRuleInput = Static<typeof GroupRuleBodySchema>;
export type WaitingPerson = Static<typeof WaitingPersonSchema>;
/** Each app whose seat a member holds in the company, with the roles given and the app's roles; a change's answer. */
export type MemberAppRoles = Static<typeof MemberAppRolesSchema>['data'][number];
export type HeldRoles = Static<typeof HeldRolesSchema>;
/** A catalogue app's role (decision 0134), what creates one and what changes one. */
export type AppRole = Static<typeof AppRoleSchema>;
export type AppRoleInput = Static<typeof CreateAppRoleBody>;
export type AppRoleChange = Static<typeof UpdateAppRoleBody>;
/** The roles of each app of a company's licences: the ones it may give. */
export type CompanyAppRoles = Static<typeof CompanyAppRolesSchema>['data'][number];
