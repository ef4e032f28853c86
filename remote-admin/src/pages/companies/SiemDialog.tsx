import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, Modal } from '@portal/shared';
import {
  createAuditStream,
  deleteAuditStream,
  listAuditStreams,
  testAuditStream,
  updateAuditStream,
} from '../../api/companies';
import type { AuditStream } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { LoadState } from '../../components/LoadState';
import { StackedTable } from '../../components/StackedTable';
import { useLoad } from '../../hooks/useLoad';
import { changeInput, createInput, emptySiemForm, type SiemForm, siemFormProblem, streamToForm } from './siem-form';
import { SiemDestinationForm } from './SiemDestinationForm';
import { TEXT_COMPANY as T } from './texts';

/** How often the open dialog reads its destinations again: what each got, its lag and its last error move. */
export const SIEM_REFRESH_MS = 5_000;

/**
 * A receiver's words (a TLS failure, a long URL) wrap inside the dialog instead of widening it: its notices, and the
 * table's cells of such words (class token); the buttons of a row wrap too rather than push the table sideways.
 */
const Body = styled.div`
  > p, [role='alert'], [role='status'] { overflow-wrap: anywhere; }
  table td.actions { white-space: normal; }
  table td.actions > * { margin: 2px 8px 2px 0; white-space: nowrap; }
`;

type Notice = { text: string; tone: 'success' | 'error' | 'info' };

/** Where a destination sends, in one line. */
const whereTo = (stream: AuditStream) =>
  stream.tipo === 'syslog'
    ? `syslog TLS · ${stream.host}:${stream.puerto}`
    : `HTTPS ${stream.formato === 'splunk-hec' ? 'Splunk HEC' : 'NDJSON'} · ${stream.url}`;

/**
 * 'Enviar a mi SIEM': the company's destinations with what each got (delivered until, lag, last error in Spanish),
 * read again every few seconds while open; pause or resume, a test event (its failure said as one), 'Editar', delete;
 * and a form to add one. Its secret and key are written, never shown.
 */
export function SiemDialog({ companyId, onClose }: { companyId: number; onClose(): void }) {
  const streams = useLoad(() => listAuditStreams(companyId), COMPANY_FALLBACK.auditStreams, [companyId]);
  const { reload } = streams;
  useEffect(() => {
    const every = setInterval(reload, SIEM_REFRESH_MS);
    return () => clearInterval(every);
  }, [reload]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<AuditStream | null>(null);
  const [form, setForm] = useState<SiemForm>(emptySiemForm);

  /** Runs one call; its answer (or its failure, in Spanish) is the dialog's notice, and the list is read again. */
  async function run(call: () => Promise<Notice | null>, fallback: string) {
    setBusy(true);
    try {
      setNotice(await call());
    } catch (failure) {
      setNotice({ text: errorMessage(failure, fallback), tone: 'error' });
    } finally {
      setBusy(false);
      reload();
    }
  }

  const stopEditing = () => {
    setEditing(null);
    setForm(emptySiemForm);
  };

  const save = () => {
    const problem = siemFormProblem(form, editing ?? undefined);
    if (problem) return setNotice({ text: problem, tone: 'error' });
    if (!editing)
      return void run(async () => {
        await createAuditStream(companyId, createInput(form));
        setForm(emptySiemForm);
        return { text: T.siemAdded, tone: 'success' };
      }, COMPANY_FALLBACK.auditStream);
    const change = changeInput(editing, form);
    if (!change) {
      stopEditing();
      return setNotice({ text: T.siemUnchanged, tone: 'info' });
    }
    void run(async () => {
      await updateAuditStream(companyId, editing.id, change);
      stopEditing();
      return { text: T.siemSaved, tone: 'success' };
    }, COMPANY_FALLBACK.auditStream);
  };

  return (
    <Modal title={T.siemOpen} onClose={onClose} width="960px">
      <Body>
        <p>{T.siemIntro}</p>
        {notice && (
          <Alert tone={notice.tone} holdsLostFocus>
            {notice.text}
          </Alert>
        )}
        <LoadState state={{ data: streams.data, error: streams.error }} empty={T.siemEmpty}>
          {(list) => (
            <StackedTable
              aria-label={T.siemDestinations}
              columns={[T.siemDestination, T.siemState, T.siemDelivered, T.siemLag, T.siemLastError, T.siemActions]}
            >
              {list.map((stream) => (
                <tr key={stream.id}>
                  <td className="lead token">{whereTo(stream)}</td>
                  <td data-label={T.siemState}>{T.siemStates[stream.estado]}</td>
                  <td className="nowrap" data-label={T.siemDelivered}>
                    {stream.entregadoHasta ? new Date(stream.entregadoHasta).toLocaleString('es-ES') : T.siemNothingYet}
                  </td>
                  <td data-label={T.siemLag}>{T.siemLagValue(stream.retraso.entradas, stream.retraso.segundos)}</td>
                  <td className="token" data-label={T.siemLastError}>
                    {stream.ultimoError ?? T.siemNoError}
                  </td>
                  <td className="actions">
                    <Button
                      $variant="secondary"
                      disabled={busy}
                      onClick={() =>
                        run(async () => {
                          await updateAuditStream(companyId, stream.id, {
                            estado: stream.estado === 'activo' ? 'pausado' : 'activo',
                          });
                          return null;
                        }, COMPANY_FALLBACK.auditStream)
                      }
                    >
                      {stream.estado === 'activo' ? T.siemPause : T.siemResume}
                    </Button>
                    <Button
                      $variant="secondary"
                      disabled={busy}
                      onClick={() =>
                        run(async () => {
                          const { entregado, mensaje } = await testAuditStream(companyId, stream.id);
                          return { text: mensaje, tone: entregado ? 'success' : 'error' };
                        }, COMPANY_FALLBACK.auditStreamTest)
                      }
                    >
                      {T.siemTest}
                    </Button>
                    <Button
                      $variant="secondary"
                      disabled={busy}
                      onClick={() => {
                        setNotice(null);
                        setEditing(stream);
                        setForm(streamToForm(stream));
                      }}
                    >
                      {T.siemEditButton}
                    </Button>
                    {confirming === stream.id ? (
                      <Button
                        $variant="danger"
                        disabled={busy}
                        onClick={() =>
                          run(async () => {
                            setConfirming(null);
                            await deleteAuditStream(companyId, stream.id);
                            if (editing?.id === stream.id) stopEditing();
                            return null;
                          }, COMPANY_FALLBACK.auditStream)
                        }
                      >
                        {T.siemConfirmDelete}
                      </Button>
                    ) : (
                      <Button $variant="secondary" disabled={busy} onClick={() => setConfirming(stream.id)}>
                        {T.siemDelete}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </StackedTable>
          )}
        </LoadState>
        <SiemDestinationForm
          form={form}
          onChange={setForm}
          editing={editing}
          busy={busy}
          onSubmit={save}
          onCancelEdit={stopEditing}
          onClose={onClose}
        />
      </Body>
    </Modal>
  );
}
