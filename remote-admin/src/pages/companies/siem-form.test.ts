import { auditStream } from '../../testing/companies';
import { changeInput, createInput, emptySiemForm, siemFormProblem, streamToForm } from './siem-form';

const hec = auditStream();
const syslog = auditStream({
  tipo: 'syslog',
  url: undefined,
  formato: undefined,
  cabecera: undefined,
  tieneSecreto: undefined,
  host: 'siem.andina.pe',
  puerto: 6514,
  certificado: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
  tieneClave: true,
});

describe("a SIEM destination's form", () => {
  it('sends a new destination with only its kind’s fields, empty ones left out', () => {
    expect(createInput({ ...emptySiemForm, host: ' siem.andina.pe ', clave: ' ' })).toEqual({
      tipo: 'syslog',
      host: 'siem.andina.pe',
      puerto: 6514,
      ca: undefined,
      certificado: undefined,
      clave: undefined,
    });
  });

  it('shows a destination without its secret, and sends nothing when nothing changed', () => {
    const form = streamToForm(hec);
    expect(form).toMatchObject({ tipo: 'https', url: hec.url, cabecera: 'Authorization', secreto: '', ca: '' });
    expect(changeInput(hec, form)).toBeNull();
    expect(siemFormProblem(form, hec)).toBeNull();
  });

  it('sends only what changed: a new CA, an emptied one as null, the secret only when written', () => {
    const form = streamToForm(hec);
    expect(changeInput(hec, { ...form, ca: '-----BEGIN CERTIFICATE-----' })).toEqual({
      ca: '-----BEGIN CERTIFICATE-----',
    });
    expect(changeInput({ ...hec, ca: 'PEM' }, { ...streamToForm({ ...hec, ca: 'PEM' }), ca: '' })).toEqual({
      ca: null,
    });
    expect(changeInput(hec, { ...form, secreto: 'nuevo-token' })).toEqual({ secreto: 'nuevo-token' });
  });

  it('asks for the secret again when the URL changes, and for the client key when the server or port does', () => {
    const moved = { ...streamToForm(hec), url: 'https://otro.andina.pe/collector' };
    expect(siemFormProblem(moved, hec)).toBe(
      'Cambiaste la dirección: escribe de nuevo el secreto (no se envía a otra dirección sin que lo confirmes).',
    );
    expect(siemFormProblem({ ...moved, secreto: 'hec-token' }, hec)).toBeNull();
    expect(changeInput(hec, { ...moved, secreto: 'hec-token' })).toEqual({
      url: 'https://otro.andina.pe/collector',
      secreto: 'hec-token',
    });
    const port = { ...streamToForm(syslog), puerto: '10514' };
    expect(siemFormProblem(port, syslog)).toBe(
      'Cambiaste la dirección: escribe de nuevo la clave del cliente (no se envía a otra dirección sin que lo confirmes).',
    );
    // Without a header (or a client certificate) there is no secret to carry: nothing to ask.
    expect(siemFormProblem({ ...moved, cabecera: '' }, hec)).toBeNull();
    expect(siemFormProblem({ ...port, puerto: '70000' }, syslog)).toBe('El puerto es un número entre 1 y 65535');
  });
});
