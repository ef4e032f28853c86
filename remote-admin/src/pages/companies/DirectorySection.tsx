import { useCallback, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, CopyButton, Facts, Modal, TextField } from '@portal/shared';
import { createScimToken, listScimLog, listScimTokens, revokeScimToken } from '../../api/companies';
import type { ScimToken, ScimTokenCreated } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialog, FormText } from '../../components/FormDialog';
import { LoadState } from '../../components/LoadState';
import { DialogActions, Panel } from '../../components/Page';
import { StackedTable } from '../../components/StackedTable';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import { mayEditAccess, readablePath } from '../../rules/companies';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const T = TEXT_COMPANY;
const when = (iso: string) => new Date(iso).toLocaleString('es-ES');
const LOG_LIMIT = 50;

const LogHead = styled(SectionHead)`
  margin-top: 28px;
  h3 { margin: 0; }
`;

/**
 * 'Directorio (SCIM)' (docs/decisions/0081-scim-provisioning.md): the base URL and the tokens the company's directory
 * uses, and its last requests. Owners and the platform create and revoke tokens; a company administrator reads.
 */
export function DirectorySection({ companyId, viewer, announce }: SectionProps) {
  const editor = mayEditAccess(viewer);
  const tokens = useLoad(() => listScimTokens(companyId), COMPANY_FALLBACK.scimTokens, [companyId]);
  const log = useLoad(() => listScimLog(companyId, LOG_LIMIT), COMPANY_FALLBACK.scimLog, [companyId]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ScimTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);
  const closeCreate = useCallback(() => setCreating(false), []);
  const closeRevoke = useCallback(() => setRevoking(null), []);
  // The token is kept only while its dialog is open: closed, it is gone from the page.
  const closeCreated = useCallback(() => setCreated(null), []);
  const urlBase = tokens.data?.urlBase ?? created?.urlBase ?? null;

  return (
    <Panel aria-labelledby="directory-title">
      <SectionHead>
        <h2 id="directory-title">{T.directory}</h2>
        {editor && <Button onClick={() => setCreating(true)}>{T.createToken}</Button>}
      </SectionHead>
      <p>{T.directoryIntro}</p>
      {!editor && <p>{T.readOnly}</p>}
      {urlBase && (
        <Facts aria-label={T.scimBaseUrl}>
          <dt>{T.scimBaseUrl}</dt>
          <dd>
            <code>{urlBase}</code>
          </dd>
          <dd>
            <CopyButton text={urlBase} label={T.copyOf(T.scimBaseUrl.toLowerCase())} />
          </dd>
        </Facts>
      )}
      <LoadState state={tokens} loading={T.loadingScimTokens} empty={T.noScimTokens}>
        {({ data }) => (
          <StackedTable
            aria-label={T.scimTokens}
            columns={[
              T.colToken,
              T.colDescription,
              T.colTokenCreated,
              T.colCreatedBy,
              T.colLastUse,
              T.colStatus,
              editor && T.colActions,
            ]}
          >
            {data.map((token) => (
              <tr key={token.id}>
                <td className="lead">
                  <code>{T.tokenPrefix(token.prefijo)}</code>
                </td>
                <td data-label={T.colDescription}>{token.descripcion}</td>
                <td className="nowrap" data-label={T.colTokenCreated}>
                  {when(token.creado)}
                </td>
                <td data-label={T.colCreatedBy}>{token.creadoPor ?? ''}</td>
                <td className="nowrap" data-label={T.colLastUse}>
                  {token.ultimoUso ? when(token.ultimoUso) : T.never}
                </td>
                <td data-label={T.colStatus}>
                  <StatusPill $tone={token.revocado ? 'neutral' : 'ok'}>
                    {token.revocado ? T.tokenRevoked(when(token.revocado)) : T.tokenActive}
                  </StatusPill>
                </td>
                {editor && (
                  <td className="actions">
                    {!token.revocado && (
                      <Button
                        $variant="danger"
                        aria-label={T.revokeTokenOf(token.prefijo)}
                        onClick={() => setRevoking(token)}
                      >
                        {T.revoke}
                      </Button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </StackedTable>
        )}
      </LoadState>

      <section aria-labelledby="directory-log-title">
        <LogHead>
          <h3 id="directory-log-title">{T.scimLog}</h3>
          <Button $variant="secondary" onClick={log.reload}>
            {T.refresh}
          </Button>
        </LogHead>
        <LoadState state={log} loading={T.loadingScimLog} empty={T.noScimLog}>
          {({ data }) => (
            <StackedTable
              aria-label={T.scimLogTable}
              columns={[T.colDate, T.colMethod, T.colPath, T.colHttpStatus, T.colDetail, T.colPerson]}
            >
              {[...data]
                .sort((a, b) => b.fecha.localeCompare(a.fecha))
                .map((entry) => (
                  <tr key={entry.id}>
                    <td className="lead nowrap">{when(entry.fecha)}</td>
                    <td data-label={T.colMethod}>{entry.metodo}</td>
                    <td data-label={T.colPath}>
                      <code>{readablePath(entry.ruta)}</code>
                    </td>
                    <td data-label={T.colHttpStatus}>
                      <StatusPill $tone={entry.estado >= 400 ? 'danger' : 'ok'}>{entry.estado}</StatusPill>
                    </td>
                    <td data-label={T.colDetail}>{entry.detalle}</td>
                    <td data-label={T.colPerson}>{entry.usuario ?? ''}</td>
                  </tr>
                ))}
            </StackedTable>
          )}
        </LoadState>
      </section>

      {creating && (
        <FormDialog
          title={T.createTokenTitle}
          initial={{ descripcion: '' }}
          labels={{ descripcion: T.tokenDescription }}
          validate={(form) => (form.descripcion.trim().length > 100 ? T.tokenDescriptionTooLong : null)}
          onSubmit={async (form) => {
            const token = await createScimToken(companyId, form.descripcion.trim() || undefined);
            setCreating(false);
            setCreated(token);
            tokens.reload();
          }}
          onClose={closeCreate}
        >
          {({ bind }) => <FormText label={T.tokenDescription} wide {...bind('descripcion')} />}
        </FormDialog>
      )}
      {created && <TokenDialog token={created} onClose={closeCreated} />}
      {revoking && (
        <ConfirmDialog
          title={T.revokeTokenTitle(revoking.prefijo)}
          text={T.revokeTokenText}
          confirmLabel={T.revoke}
          fallback={COMPANY_FALLBACK.scimToken}
          onClose={closeRevoke}
          onConfirm={async () => {
            await revokeScimToken(companyId, revoking.id);
            setRevoking(null);
            announce(T.tokenRevokedDone(revoking.prefijo));
            tokens.reload();
          }}
        />
      )}
    </Panel>
  );
}

/** The token just created, shown this once (the API keeps only its hash), with 'Copiar'. */
function TokenDialog({ token, onClose }: { token: ScimTokenCreated; onClose(): void }) {
  return (
    <Modal title={T.tokenCreatedTitle} width="560px" onClose={onClose}>
      <Alert tone="info">{T.tokenOnce}</Alert>
      <TextField
        label={T.token}
        value={token.token}
        readOnly
        spellCheck={false}
        autoComplete="off"
        onFocus={(event) => event.target.select()}
      />
      <DialogActions>
        <CopyButton text={token.token} label={T.copyOf(T.token.toLowerCase())} />
        <Button $variant="secondary" onClick={onClose}>
          {T.close}
        </Button>
      </DialogActions>
    </Modal>
  );
}
