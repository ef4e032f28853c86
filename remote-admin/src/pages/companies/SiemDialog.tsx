import { type FormEvent, useState } from 'react';
import { Alert, Button, errorMessage, Modal, TextAreaField, TextField } from '@portal/shared';
import {
  createAuditStream,
  deleteAuditStream,
  listAuditStreams,
  testAuditStream,
  updateAuditStream,
} from '../../api/companies';
import type { AuditStream, AuditStreamInput } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { LoadState } from '../../components/LoadState';
import { SelectField } from '../../components/SelectField';
import { StackedTable } from '../../components/StackedTable';
import { useLoad } from '../../hooks/useLoad';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_COMPANY as T } from './texts';

type Kind = 'syslog' | 'https';
type Format = 'ndjson' | 'splunk-hec';
const EMPTY = { host: '', puerto: '6514', ca: '', certificado: '', clave: '', url: '', cabecera: '', secreto: '' };

/** Where a destination sends, in one line. */
const whereTo = (stream: AuditStream) =>
  stream.tipo === 'syslog'
    ? `syslog TLS · ${stream.host}:${stream.puerto}`
    : `HTTPS ${stream.formato === 'splunk-hec' ? 'Splunk HEC' : 'NDJSON'} · ${stream.url}`;

/** The form's values as the API takes them: only the fields of the kind, empty ones left out. */
function inputOf(kind: Kind, format: Format, form: typeof EMPTY): AuditStreamInput {
  const given = (value: string) => (value.trim() ? value.trim() : undefined);
  return kind === 'syslog'
    ? {
        tipo: kind,
        host: form.host.trim(),
        puerto: Number(form.puerto),
        ca: given(form.ca),
        certificado: given(form.certificado),
        clave: given(form.clave),
      }
    : {
        tipo: kind,
        url: form.url.trim(),
        formato: format,
        cabecera: given(form.cabecera),
        secreto: given(form.secreto),
        ca: given(form.ca),
      };
}

/**
 * 'Enviar a mi SIEM': the company's destinations with what each got (delivered until, lag, last error in Spanish),
 * pause or resume, a test event, delete; and a form to add one. Its secret and key are written once, never shown.
 */
export function SiemDialog({ companyId, onClose }: { companyId: number; onClose(): void }) {
  const streams = useLoad(() => listAuditStreams(companyId), COMPANY_FALLBACK.auditStreams, [companyId]);
  const [notice, setNotice] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [kind, setKind] = useState<Kind>('syslog');
  const [format, setFormat] = useState<Format>('splunk-hec');
  const [form, setForm] = useState(EMPTY);
  const field = (key: keyof typeof EMPTY) => ({
    value: form[key],
    onChange: (value: string) => setForm((current) => ({ ...current, [key]: value })),
    disabled: busy,
  });

  /** Runs one call; its answer (or its failure, in Spanish) is the dialog's notice, and the list is read again. */
  async function run(call: () => Promise<string | null>, fallback: string) {
    setBusy(true);
    try {
      const text = await call();
      setNotice(text ? { text, tone: 'success' } : null);
    } catch (failure) {
      setNotice({ text: errorMessage(failure, fallback), tone: 'error' });
    } finally {
      setBusy(false);
      streams.reload();
    }
  }

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (kind === 'syslog' && !(Number(form.puerto) >= 1 && Number(form.puerto) <= 65_535))
      return setNotice({ text: T.siemPortInvalid, tone: 'error' });
    void run(async () => {
      await createAuditStream(companyId, inputOf(kind, format, form));
      setForm(EMPTY);
      return T.siemAdded;
    }, COMPANY_FALLBACK.auditStream);
  };

  return (
    <Modal title={T.siemOpen} onClose={onClose} width="960px">
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
                <td data-label={T.siemLastError}>{stream.ultimoError ?? T.siemNoError}</td>
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
                  </Button>{' '}
                  <Button
                    $variant="secondary"
                    disabled={busy}
                    onClick={() =>
                      run(
                        async () => (await testAuditStream(companyId, stream.id)).mensaje,
                        COMPANY_FALLBACK.auditStreamTest,
                      )
                    }
                  >
                    {T.siemTest}
                  </Button>{' '}
                  {confirming === stream.id ? (
                    <Button
                      $variant="danger"
                      disabled={busy}
                      onClick={() =>
                        run(async () => {
                          setConfirming(null);
                          await deleteAuditStream(companyId, stream.id);
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
      <form onSubmit={add} noValidate aria-label={T.siemAdd}>
        <h3>{T.siemAdd}</h3>
        <SelectField<Kind>
          id="siem-kind"
          label={T.siemKind}
          value={kind}
          options={[
            { value: 'syslog', label: T.siemKinds.syslog },
            { value: 'https', label: T.siemKinds.https },
          ]}
          disabled={busy}
          onChange={setKind}
        />
        {kind === 'syslog' ? (
          <>
            <TextField label={T.siemHost} {...text(field('host'))} />
            <TextField label={T.siemPort} inputMode="numeric" {...text(field('puerto'))} />
            <TextAreaField label={T.siemClientCert} {...field('certificado')} />
            <TextAreaField label={T.siemClientKey} {...field('clave')} />
          </>
        ) : (
          <>
            <TextField label={T.siemUrl} {...text(field('url'))} />
            <SelectField<Format>
              id="siem-format"
              label={T.siemFormat}
              value={format}
              options={[
                { value: 'splunk-hec', label: T.siemFormats['splunk-hec'] },
                { value: 'ndjson', label: T.siemFormats.ndjson },
              ]}
              disabled={busy}
              onChange={setFormat}
            />
            <TextField label={T.siemHeader} {...text(field('cabecera'))} />
            <TextField label={T.siemSecret} type="password" hint={T.siemSecretHint} {...text(field('secreto'))} />
          </>
        )}
        <TextAreaField label={T.siemCa} hint={T.siemCaHint} {...field('ca')} />
        <p>
          <Button type="submit" disabled={busy}>
            {busy ? T.siemAdding : T.siemAdd}
          </Button>{' '}
          <Button $variant="secondary" onClick={onClose}>
            {TEXT_ADMIN.close}
          </Button>
        </p>
      </form>
    </Modal>
  );
}

/** A bound field as a text input takes it. */
function text(bound: { value: string; onChange(value: string): void; disabled: boolean }) {
  return {
    value: bound.value,
    disabled: bound.disabled,
    onChange: (event: { target: { value: string } }) => bound.onChange(event.target.value),
  };
}
