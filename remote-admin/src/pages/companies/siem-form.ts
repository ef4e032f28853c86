import type { AuditStream, AuditStreamChange, AuditStreamInput } from '../../api/company-types';
import { TEXT_COMPANY as T } from './texts';

export type SiemKind = AuditStream['tipo'];
export type SiemFormat = NonNullable<AuditStream['formato']>;

/** A SIEM destination's form as its inputs hold it: both kinds' fields, the secret and the key always empty at first. */
export interface SiemForm {
  tipo: SiemKind;
  formato: SiemFormat;
  host: string;
  puerto: string;
  ca: string;
  certificado: string;
  clave: string;
  url: string;
  cabecera: string;
  secreto: string;
}

export const emptySiemForm: SiemForm = {
  tipo: 'syslog',
  formato: 'splunk-hec',
  host: '',
  puerto: '6514',
  ca: '',
  certificado: '',
  clave: '',
  url: '',
  cabecera: '',
  secreto: '',
};

/** A destination as 'Editar' shows it: where it sends and its certificates; the secret and the key are never shown. */
export function streamToForm(stream: AuditStream): SiemForm {
  return {
    ...emptySiemForm,
    tipo: stream.tipo,
    formato: stream.formato ?? emptySiemForm.formato,
    host: stream.host ?? '',
    puerto: stream.puerto === undefined ? '' : String(stream.puerto),
    ca: stream.ca ?? '',
    certificado: stream.certificado ?? '',
    url: stream.url ?? '',
    cabecera: stream.cabecera ?? '',
  };
}

const given = (value: string) => (value.trim() ? value.trim() : undefined);

/** The new destination as the API takes it: only its kind's fields, empty ones left out. */
export function createInput(form: SiemForm): AuditStreamInput {
  return form.tipo === 'syslog'
    ? {
        tipo: 'syslog',
        host: form.host.trim(),
        puerto: Number(form.puerto),
        ca: given(form.ca),
        certificado: given(form.certificado),
        clave: given(form.clave),
      }
    : {
        tipo: 'https',
        url: form.url.trim(),
        formato: form.formato,
        cabecera: given(form.cabecera),
        secreto: given(form.secreto),
        ca: given(form.ca),
      };
}

/** Whether the form sends the destination elsewhere: another URL, or another server or port. */
export function addressChanged(stream: AuditStream, form: SiemForm): boolean {
  return stream.tipo === 'https'
    ? form.url.trim() !== (stream.url ?? '')
    : form.host.trim() !== (stream.host ?? '') || Number(form.puerto) !== stream.puerto;
}

/**
 * Whether the saved secret (HTTPS) or client key (syslog) must be written again: the address changes and the
 * destination keeps one it would send there (the API refuses it otherwise, SECRETO_REQUERIDO).
 */
export function secretAskedAgain(stream: AuditStream, form: SiemForm): boolean {
  if (!addressChanged(stream, form)) return false;
  return stream.tipo === 'https'
    ? Boolean(stream.tieneSecreto) && Boolean(form.cabecera.trim())
    : Boolean(stream.tieneClave) && Boolean(form.certificado.trim());
}

/** The form's own refusal before sending, or null: a port in range, the secret again when the address changes. */
export function siemFormProblem(form: SiemForm, stream?: AuditStream): string | null {
  if (form.tipo === 'syslog' && !(Number(form.puerto) >= 1 && Number(form.puerto) <= 65_535)) return T.siemPortInvalid;
  if (stream && secretAskedAgain(stream, form) && !(form.tipo === 'https' ? form.secreto : form.clave).trim())
    return form.tipo === 'https' ? T.siemSecretAgain : T.siemKeyAgain;
  return null;
}

/**
 * What 'Editar' sends: only what changed (an emptied optional field as null, which takes it away), the secret or the
 * key only when written; null when nothing changed.
 */
export function changeInput(stream: AuditStream, form: SiemForm): AuditStreamChange | null {
  const before = streamToForm(stream);
  const change: AuditStreamChange = {};
  const text = (key: 'host' | 'url' | 'ca' | 'certificado' | 'cabecera', nullable: boolean) => {
    const value = form[key].trim();
    if (value === before[key].trim()) return;
    (change as Record<string, string | null>)[key] = value || (nullable ? null : value);
  };
  if (stream.tipo === 'syslog') {
    text('host', false);
    if (Number(form.puerto) !== stream.puerto) change.puerto = Number(form.puerto);
    text('certificado', true);
    if (form.clave.trim()) change.clave = form.clave.trim();
  } else {
    text('url', false);
    if (form.formato !== stream.formato) change.formato = form.formato;
    text('cabecera', true);
    if (form.secreto.trim()) change.secreto = form.secreto.trim();
  }
  text('ca', true);
  return Object.keys(change).length > 0 ? change : null;
}
