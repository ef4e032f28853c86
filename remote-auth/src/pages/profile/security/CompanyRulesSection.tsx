import { API_PATHS, companyRuleSentences, LoadFailed, type RulesOfMyCompany, request } from '@portal/shared';
import { useLoad } from '../../../hooks/useLoad';
import { List, Section } from './styles';

export const COMPANY_RULES_LOAD_FAILED = 'No se pudieron cargar las reglas de tu empresa';

async function listMyCompanyRules(): Promise<RulesOfMyCompany[]> {
  const { data } = await request<{ data: RulesOfMyCompany[] }>('get', API_PATHS.auth.myCompanyRules, {
    fallback: COMPANY_RULES_LOAD_FAILED,
  });
  return data;
}

/**
 * 'Reglas de tu empresa': the rules of the person's companies that bind their sign-in and sessions, and why (their
 * company set them; docs/decisions/0103-company-rules.md). Shown only to a person some company's rules bind.
 */
export function CompanyRulesSection() {
  const { data: companies, error, reload } = useLoad(listMyCompanyRules, COMPANY_RULES_LOAD_FAILED);
  if (error)
    return (
      <Section aria-labelledby="reglas-empresa-titulo">
        <h2 id="reglas-empresa-titulo">Reglas de tu empresa</h2>
        <LoadFailed message={error} onRetry={() => void reload()} />
      </Section>
    );
  if (!companies || companies.length === 0) return null;
  return (
    <Section aria-labelledby="reglas-empresa-titulo">
      <h2 id="reglas-empresa-titulo">Reglas de tu empresa</h2>
      <p>
        Tu empresa decide desde dónde y cómo entran sus miembros. Si perteneces a varias, se aplica la regla más
        estricta. Para cambiarlas, habla con un administrador de la empresa.
      </p>
      <List aria-label="Reglas de tu empresa">
        {companies.map((company) => (
          <li key={company.empresa.id}>
            <p>
              <strong>{company.empresa.nombre}</strong>
            </p>
            {companyRuleSentences(company).map((sentence) => (
              <p key={sentence}>{sentence}</p>
            ))}
          </li>
        ))}
      </List>
    </Section>
  );
}
