import { type FormEvent, useCallback, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, CopyButton, errorMessage, type SetupLink, TextField, theme, useSubmit } from '@portal/shared';
import { createSetupLink, listSetupLinks, revokeSetupLink } from '../../api/companies';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { StackedTable } from '../../components/StackedTable';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import type { SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const T = TEXT_COMPANY;
const when = (iso: string) => new Date(iso).toLocaleString('es-ES');
const HOURS = { min: 1, max: 72, default: 24 } as const;
const TONES = { activo: 'ok', vencido: 'neutral', revocado: 'neutral' } as const;

const Create = styled.form`
  display: grid;
  grid-template-columns: minmax(0, 220px) auto;
  align-items: end;
  gap: 12px;
  margin: 0 0 16px;
  @media (max-width: ${theme.breakpoint.mobile}) {
    grid-template-columns: minmax(0, 1fr);
    button { justify-self: start; }
  }
`;

const Created = styled.div`
  display: grid;
  gap: 8px;
  margin: 0 0 16px;
  code { display: block; overflow-wrap: anywhere; padding: 6px 8px; border-radius: 6px; background: ${theme.color.background}; }
  div { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
`;

/**
 * 'Enlaces de configuración' (docs/decisions/0105-company-setup-link.md), in 'Ajustes': the company's owners create a
 * link for its IT (1 to 72 hours, 24 by default; its URL shown once, with 'Copiar'), see the links (who created them,
 * until when, their state) and revoke one after a confirmation; a platform administrator lists and revokes. Shown to
 * them only: the API refuses everyone else.
 */
export function SetupLinksSection({ companyId, viewer, announce }: SectionProps) {
  const owner = viewer.role === 'propietario';
  const links = useLoad(() => listSetupLinks(companyId), COMPANY_FALLBACK.setupLinks, [companyId]);
  const [hours, setHours] = useState(String(HOURS.default));
  const [created, setCreated] = useState<{ id: number; url: string } | null>(null);
  const [revoking, setRevoking] = useState<SetupLink | null>(null);
  const closeRevoke = useCallback(() => setRevoking(null), []);
  const { busy, message, submit } = useSubmit();
  // The URL shown once goes as soon as its link can no longer be used (revoked here or elsewhere, or expired).
  const createdState = created && links.data?.find((link) => link.id === created.id)?.estado;
  const url = created && (createdState ?? 'activo') === 'activo' ? created.url : null;

  const create = (event: FormEvent) => {
    event.preventDefault();
    const horas = Number(hours.trim());
    const valid = /^\d+$/.test(hours.trim()) && horas >= HOURS.min && horas <= HOURS.max;
    setCreated(null);
    void submit({
      problem: valid ? null : T.setupLinkHoursInvalid,
      afterSuccess: 'ready',
      call: () => createSetupLink(companyId, horas),
      success: (link) => {
        setCreated({ id: link.id, url: link.url });
        links.reload();
      },
      failure: (caught) => errorMessage(caught, COMPANY_FALLBACK.createSetupLink, { horas: T.setupLinkHours }),
    });
  };

  return (
    <Panel aria-labelledby="setup-links-title">
      <h2 id="setup-links-title">{T.setupLinks}</h2>
      <p>{T.setupLinksIntro}</p>
      {owner ? (
        <Create onSubmit={create} noValidate>
          <TextField
            label={T.setupLinkHours}
            value={hours}
            disabled={busy}
            inputMode="numeric"
            autoComplete="off"
            onChange={(event) => setHours(event.target.value)}
          />
          <Button type="submit" disabled={busy}>
            {busy ? T.creatingSetupLink : T.createSetupLink}
          </Button>
        </Create>
      ) : (
        <p>{T.setupLinkOwnersOnly}</p>
      )}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
      {url && (
        <Created aria-label={T.setupLinkUrl}>
          <Alert tone="info" takesFocus>
            {T.setupLinkCreated}
          </Alert>
          <code>{url}</code>
          <div>
            <CopyButton text={url} label={T.copyOf(T.setupLinkUrl.toLowerCase())} />
          </div>
        </Created>
      )}
      <LoadState state={links} loading={T.loadingSetupLinks} empty={T.noSetupLinks}>
        {(data) => (
          <StackedTable
            aria-label={T.setupLinks}
            columns={[T.colSetupCreated, T.colCreatedBy, T.colExpires, T.colStatus, T.colActions]}
          >
            {data.map((link) => (
              <tr key={link.id}>
                <td className="lead nowrap">{when(link.creado)}</td>
                <td data-label={T.colCreatedBy}>{link.creadoPor ?? ''}</td>
                <td className="nowrap" data-label={T.colExpires}>
                  {when(link.venceEn)}
                </td>
                <td data-label={T.colStatus}>
                  <StatusPill $tone={TONES[link.estado]}>{T.setupLinkStates[link.estado]}</StatusPill>
                </td>
                <td className="actions">
                  {link.estado === 'activo' && (
                    <Button
                      $variant="danger"
                      aria-label={T.revokeSetupLinkOf(when(link.creado))}
                      onClick={() => setRevoking(link)}
                    >
                      {T.revoke}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </StackedTable>
        )}
      </LoadState>
      {revoking && (
        <ConfirmDialog
          title={T.revokeSetupLinkTitle}
          text={T.revokeSetupLinkText}
          confirmLabel={T.revoke}
          fallback={COMPANY_FALLBACK.revokeSetupLink}
          onClose={closeRevoke}
          onConfirm={async () => {
            await revokeSetupLink(companyId, revoking.id);
            if (revoking.id === created?.id) setCreated(null);
            setRevoking(null);
            announce(T.setupLinkRevoked);
            links.reload();
          }}
        />
      )}
    </Panel>
  );
}
