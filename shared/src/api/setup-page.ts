import { API_PATHS } from '@portal/contracts/api/paths';
import type {
  CompanyDomain,
  ConnectionTestResult,
  CompanyProviderAnswer,
  CompanyProviderInput,
  CompanySamlProviderInput,
  ScimTokenCreated,
  SetupPage,
} from '../types/entities';
import { request } from './client';

/**
 * The calls of a company's setup page (/configurar-empresa), without an account: each sends the link's secret as its
 * bearer token, never in an address (docs/decisions/0105-company-setup-link.md).
 */
export const SETUP_PAGE_FALLBACK = {
  page: 'No se pudo abrir la configuración de la empresa',
  claim: 'No se pudo agregar el dominio',
  verify: 'No se pudo comprobar el dominio',
  provider: 'No se pudo guardar el acceso de la empresa',
  token: 'No se pudo crear el token del directorio',
  test: 'No se pudo iniciar la prueba de conexión',
  testResult: 'No se pudo leer el resultado de la prueba de conexión',
} as const;

const P = API_PATHS.setupPage;

export function getSetupPage(secret: string): Promise<SetupPage> {
  return request('get', P.page, { bearer: secret, fallback: SETUP_PAGE_FALLBACK.page });
}

export function claimSetupDomain(secret: string, dominio: string): Promise<CompanyDomain> {
  return request('post', P.domains, { bearer: secret, json: { dominio }, fallback: SETUP_PAGE_FALLBACK.claim });
}

export function verifySetupDomain(secret: string, dominio: string): Promise<CompanyDomain> {
  return request('post', P.verifyDomain(dominio), { bearer: secret, fallback: SETUP_PAGE_FALLBACK.verify });
}

export function saveSetupProvider(
  secret: string,
  input: CompanyProviderInput | CompanySamlProviderInput,
): Promise<CompanyProviderAnswer> {
  return request('put', P.provider, { bearer: secret, json: input, fallback: SETUP_PAGE_FALLBACK.provider });
}

export function createSetupScimToken(secret: string): Promise<ScimTokenCreated> {
  return request('post', P.scimTokens, { bearer: secret, fallback: SETUP_PAGE_FALLBACK.token });
}

/** 'Probar conexión': the address to open in this tab; the provider brings it back with `?prueba=…`. */
export function startSetupConnectionTest(secret: string): Promise<{ url: string }> {
  return request('post', P.connectionTest, { bearer: secret, fallback: SETUP_PAGE_FALLBACK.test });
}

/** What the test found, read with the link that started it. */
export function readSetupConnectionTest(secret: string, resultado: string): Promise<ConnectionTestResult> {
  return request('post', P.connectionTestResult, {
    bearer: secret,
    json: { resultado },
    fallback: SETUP_PAGE_FALLBACK.testResult,
  });
}
