import { useCallback, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, CopyButton, errorMessage, theme } from '@portal/shared';
import { addDomain, confirmDomain, listDomains, removeDomain, verifyDomain } from '../../api/companies';
import type { Domain } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialog, FormText } from '../../components/FormDialog';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import { platformActions } from '../../rules/companies';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  & > li { padding: 14px 0; border-bottom: 1px solid ${theme.color.border}; }
  .title { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; }
  .title strong { font-size: 1.05rem; overflow-wrap: anywhere; }
  .actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; }
  dl { display: grid; grid-template-columns: auto 1fr auto; gap: 6px 10px; align-items: center; margin: 10px 0 0; }
  dt { font-weight: 700; color: ${theme.color.muted}; font-size: 0.9rem; }
  dd { margin: 0; min-width: 0; }
  code { display: block; overflow-wrap: anywhere; padding: 6px 8px; border-radius: 6px; background: ${theme.color.background}; }
  @media (max-width: ${theme.breakpoint.mobile}) {
    dl { grid-template-columns: 1fr auto; }
    dt { grid-column: 1 / -1; }
  }
`;

type Dialog = { kind: 'add' } | { kind: 'confirm'; domain: Domain } | { kind: 'remove'; domain: Domain } | null;

/**
 * The company's domains: the TXT record to publish and copy, 'Verificar' (the API looks the record up), and for a
 * platform administrator 'Confirmar' (ownership proved some other way, recorded under their name).
 */
export function DomainsSection({ companyId, viewer, announce }: SectionProps) {
  const domains = useLoad(() => listDomains(companyId), COMPANY_FALLBACK.domains, [companyId]);
  const { confirmDomains } = platformActions(viewer);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const close = useCallback(() => setDialog(null), []);

  const verify = async (domain: Domain) => {
    setBusy(domain.dominio);
    setRowError(null);
    try {
      await verifyDomain(companyId, domain.dominio);
      announce(TEXT_COMPANY.domainVerified(domain.dominio));
      domains.reload();
    } catch (failure) {
      setRowError(errorMessage(failure, COMPANY_FALLBACK.domain));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Panel aria-labelledby="domains-title">
      <SectionHead>
        <h2 id="domains-title">{TEXT_COMPANY.domains}</h2>
        <Button onClick={() => setDialog({ kind: 'add' })}>{TEXT_COMPANY.addDomain}</Button>
      </SectionHead>
      <p>{TEXT_COMPANY.domainsIntro}</p>
      {rowError && <Alert>{rowError}</Alert>}
      <LoadState state={domains} loading={TEXT_COMPANY.loadingDomains} empty={TEXT_COMPANY.noDomains}>
        {(list) => (
          <List>
            {list.map((domain) => (
              <li key={domain.dominio}>
                <div className="title">
                  <strong>{domain.dominio}</strong>
                  <StatusPill $tone={domain.verificado ? 'ok' : 'warning'}>
                    {!domain.verificado
                      ? TEXT_COMPANY.notVerified
                      : domain.verificadoPor === 'admin'
                        ? TEXT_COMPANY.verifiedByAdmin
                        : TEXT_COMPANY.verifiedByDns}
                  </StatusPill>
                </div>
                {!domain.verificado && (
                  <dl aria-label={TEXT_COMPANY.txtRecord}>
                    {(
                      [
                        [TEXT_COMPANY.txtName, domain.registroTxt.nombre],
                        [TEXT_COMPANY.txtValue, domain.registroTxt.valor],
                      ] as const
                    ).map(([label, value]) => (
                      <div key={label} style={{ display: 'contents' }}>
                        <dt>{label}</dt>
                        <dd>
                          <code>{value}</code>
                        </dd>
                        <dd>
                          <CopyButton
                            text={value}
                            label={TEXT_COMPANY.copyOf(`${label.toLowerCase()} de ${domain.dominio}`)}
                          />
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
                <div className="actions">
                  {!domain.verificado && (
                    <Button
                      // The lookup takes seconds: the button says so, and keeps the focus (a disabled one drops it).
                      aria-disabled={busy === domain.dominio || undefined}
                      aria-label={
                        busy === domain.dominio ? TEXT_COMPANY.verifying : TEXT_COMPANY.verifyOf(domain.dominio)
                      }
                      onClick={() => busy !== domain.dominio && void verify(domain)}
                    >
                      {busy === domain.dominio ? TEXT_COMPANY.verifying : TEXT_COMPANY.verify}
                    </Button>
                  )}
                  {!domain.verificado && confirmDomains && (
                    <Button
                      $variant="secondary"
                      aria-label={TEXT_COMPANY.confirmOf(domain.dominio)}
                      onClick={() => setDialog({ kind: 'confirm', domain })}
                    >
                      {TEXT_COMPANY.confirm}
                    </Button>
                  )}
                  <Button
                    $variant="danger"
                    aria-label={TEXT_COMPANY.removeDomainOf(domain.dominio)}
                    onClick={() => setDialog({ kind: 'remove', domain })}
                  >
                    {TEXT_COMPANY.remove}
                  </Button>
                </div>
              </li>
            ))}
          </List>
        )}
      </LoadState>
      {dialog?.kind === 'add' && (
        <FormDialog
          title={TEXT_COMPANY.addDomain}
          initial={{ dominio: '' }}
          labels={{ dominio: TEXT_COMPANY.domain }}
          validate={(form) => (form.dominio.trim() ? null : TEXT_COMPANY.domainRequired)}
          onSubmit={async (form) => {
            const added = await addDomain(companyId, form.dominio.trim());
            setDialog(null);
            announce(TEXT_COMPANY.domainAdded(added.dominio));
            domains.reload();
          }}
          onClose={close}
        >
          {({ bind }) => <FormText label={TEXT_COMPANY.domain} wide {...bind('dominio')} />}
        </FormDialog>
      )}
      {dialog?.kind === 'confirm' && (
        <ConfirmDialog
          title={TEXT_COMPANY.confirmTitle(dialog.domain.dominio)}
          text={TEXT_COMPANY.confirmText}
          confirmLabel={TEXT_COMPANY.confirm}
          fallback={COMPANY_FALLBACK.domain}
          onClose={close}
          onConfirm={async () => {
            await confirmDomain(companyId, dialog.domain.dominio);
            setDialog(null);
            announce(TEXT_COMPANY.domainVerified(dialog.domain.dominio));
            domains.reload();
          }}
        />
      )}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title={TEXT_COMPANY.removeDomainTitle(dialog.domain.dominio)}
          text={TEXT_COMPANY.removeDomainText}
          confirmLabel={TEXT_COMPANY.remove}
          fallback={COMPANY_FALLBACK.domain}
          onClose={close}
          onConfirm={async () => {
            await removeDomain(companyId, dialog.domain.dominio);
            setDialog(null);
            announce(TEXT_COMPANY.domainRemoved(dialog.domain.dominio));
            domains.reload();
          }}
        />
      )}
    </Panel>
  );
}
