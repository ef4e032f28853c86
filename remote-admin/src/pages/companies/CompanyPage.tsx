import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { Alert, LoadFailed, Spinner, Tabs, theme, useSession, useTimedMessage } from '@portal/shared';
import { getCompany, listLicences } from '../../api/companies';
import { COMPANY_FALLBACK } from '../../api/texts';
import { AdminPage } from '../../components/Page';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import {
  COMPANY_SECTIONS,
  type CompanySection,
  type CompanyViewer,
  companyRoleLabel,
  companyStatusLabel,
  isPlatformAdmin,
  managedCompanies,
} from '../../rules/companies';
import { ADMIN_ALERT_MS } from '../../texts';
import { AccessSection } from './AccessSection';
import { ActivitySection } from './ActivitySection';
import { DirectorySection } from './DirectorySection';
import { DomainsSection } from './DomainsSection';
import { GroupsSection } from './GroupsSection';
import { InvitationsSection } from './InvitationsSection';
import { LicencesSection } from './LicencesSection';
import { MembersSection } from './MembersSection';
import { ReportSection } from './ReportSection';
import { SeatsSection } from './SeatsSection';
import type { SectionProps } from './SectionParts';
import { SettingsSection } from './SettingsSection';
import { SetupLinksSection } from './SetupLinksSection';
import { SignInRulesSection } from './SignInRulesSection';
import { TEXT_COMPANY } from './texts';

const Head = styled.header`
  margin-bottom: 16px;
  a.back { display: inline-block; margin-bottom: 8px; }
  h1 { margin: 0 0 6px; display: flex; flex-wrap: wrap; align-items: center; gap: 10px; }
  p { margin: 0; color: ${theme.color.muted}; }
`;

const Body = styled.div`
  padding-top: 20px;
`;

const SECTION_IDS = COMPANY_SECTIONS.map((section) => section.id) as string[];

/**
 * /admin/empresas/:id: one company, its sections as tabs. A platform administrator also sells and changes licences
 * and confirms domains; a company's owners and administrators see the rest, for their company only (the host's guard
 * lets them in, the API answers only what their role allows).
 */
export default function CompanyPage() {
  const companyId = Number(useParams().id);
  const user = useSession((s) => s.user);
  const platform = isPlatformAdmin(user);
  const [section, setSection] = useState<CompanySection>(() => {
    const hash = typeof window === 'undefined' ? '' : window.location.hash.slice(1);
    return (SECTION_IDS.includes(hash) ? hash : 'miembros') as CompanySection;
  });
  const [alert, showAlert] = useTimedMessage(ADMIN_ALERT_MS);
  const company = useLoad(() => getCompany(companyId), COMPANY_FALLBACK.company, [companyId]);
  const licences = useLoad(() => listLicences(companyId), COMPANY_FALLBACK.licences, [companyId]);

  useEffect(() => {
    if (company.data) document.title = `${company.data.nombre} · Portal`;
  }, [company.data]);

  const role = company.data?.miRol ?? managedCompanies(user).find((c) => c.id === companyId)?.rol ?? null;
  const viewer: CompanyViewer = { platform, role };
  const announce = (text: string) => showAlert({ tone: 'success', text });
  const props: SectionProps = {
    companyId,
    viewer,
    announce,
    memberCount: company.data?.miembros ?? null,
    // The counts in the head are the API's: read again after a change, kept on screen meanwhile.
    onMembers: company.reload,
    companyName: company.data?.nombre ?? '',
  };

  if (company.error && !company.data) {
    return (
      <AdminPage>
        <LoadFailed message={company.error} onRetry={company.reload} />
      </AdminPage>
    );
  }
  if (!company.data) return <Spinner label={TEXT_COMPANY.loadingCompany} />;
  const data = company.data;

  return (
    <AdminPage>
      <Head>
        {(platform || managedCompanies(user).length > 1) && (
          <Link className="back" to="/admin/empresas">
            {TEXT_COMPANY.backToCompanies}
          </Link>
        )}
        <h1>
          {data.nombre}
          <StatusPill $tone={data.estado === 'activa' ? 'ok' : 'danger'}>{companyStatusLabel(data.estado)}</StatusPill>
        </h1>
        <p>{TEXT_COMPANY.companyFacts(data.miembros, data.pendientes, role ? companyRoleLabel(role) : null)}</p>
      </Head>
      {alert && (
        <Alert tone={alert.tone} holdsLostFocus>
          {alert.text}
        </Alert>
      )}
      <Tabs
        label={TEXT_COMPANY.sectionsLabel}
        scrolls
        items={COMPANY_SECTIONS.map(({ id, label }) => ({ id, label }))}
        active={section}
        onChange={(id) => {
          setSection(id as CompanySection);
          window.history.replaceState(window.history.state, '', `#${id}`);
        }}
      >
        <Body>
          {section === 'miembros' && (
            <MembersSection {...props} licences={licences.data ?? []} onSeats={licences.reload} />
          )}
          {section === 'invitaciones' && <InvitationsSection {...props} licences={licences.data ?? []} />}
          {section === 'puestos' && (
            <SeatsSection {...props} licences={licences.data ?? []} onSeats={licences.reload} />
          )}
          {section === 'licencias' && (
            <LicencesSection {...props} licences={licences.data} error={licences.error} reload={licences.reload} />
          )}
          {section === 'dominios' && <DomainsSection {...props} />}
          {section === 'acceso' && <AccessSection {...props} />}
          {section === 'directorio' && <DirectorySection {...props} />}
          {section === 'grupos' && <GroupsSection {...props} licences={licences.data ?? []} />}
          {section === 'actividad' && <ActivitySection {...props} />}
          {section === 'informe' && <ReportSection {...props} />}
          {section === 'ajustes' && (
            <SettingsSection {...props} company={data} onSaved={(saved) => company.setData(saved)} />
          )}
          {section === 'ajustes' && (
            <SignInRulesSection {...props} company={data} onSaved={(saved) => company.setData(saved)} />
          )}
          {section === 'ajustes' && (platform || role === 'propietario') && <SetupLinksSection {...props} />}
        </Body>
      </Tabs>
    </AdminPage>
  );
}
