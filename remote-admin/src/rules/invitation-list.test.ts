import { parseInvitationList, rowsToSend, splitFields } from './invitation-list';

const apps = [
  { id: 2, nombre: 'Control Max 360', vencida: false },
  { id: 7, nombre: 'Pesaje, Básculas', vencida: false },
  { id: 9, nombre: 'Calderas Viejas', vencida: true },
];
const owner = { roles: ['propietario', 'administrador', 'miembro'] as const, apps };
const manager = { roles: ['administrador', 'miembro'] as const, apps };

/** Each row as [line, email, role, app id, problems]. */
const read = (text: string, choices: Parameters<typeof parseInvitationList>[1] = owner) =>
  parseInvitationList(text, choices).rows.map((row) => [
    row.line,
    row.email,
    row.rol,
    row.app?.id ?? null,
    row.problems,
  ]);

describe('a list of people to invite', () => {
  it('reads email, role and app by commas, semicolons or tabs; roles and apps as the screens name them or by id', () => {
    const text = [
      'ana@planta.pe, Miembro, Control Max 360',
      'BETO@Planta.pe ;administrador; 2',
      'carla@planta.pe\tADMINISTRADÓR\tcontrol max 360',
      '  dario@planta.pe  ',
      'elena@planta.pe,propietario',
      'fabio@planta.pe;Miembro;Pesaje, Básculas',
      'gina@planta.pe,miembro,"Pesaje, Básculas"',
      'hugo@planta.pe, , 7',
    ].join('\n');
    expect(read(text)).toEqual([
      [1, 'ana@planta.pe', 'miembro', 2, []],
      [2, 'beto@planta.pe', 'administrador', 2, []],
      [3, 'carla@planta.pe', 'administrador', 2, []],
      [4, 'dario@planta.pe', 'miembro', null, []],
      [5, 'elena@planta.pe', 'propietario', null, []],
      [6, 'fabio@planta.pe', 'miembro', 7, []],
      [7, 'gina@planta.pe', 'miembro', 7, []],
      [8, 'hugo@planta.pe', 'miembro', 7, []],
    ]);
  });

  it('skips a header line, blank lines, the rows a spreadsheet leaves empty and a byte order mark; lines keep their numbers', () => {
    const parsed = parseInvitationList(
      '\uFEFFCorreo electrónico;Rol;App\r\n\r\nana@planta.pe;Miembro;\r\n;;\r\nbeto@planta.pe',
      owner,
    );
    expect(parsed.header).toBe(true);
    expect(parsed.rows.map((row) => [row.line, row.email])).toEqual([
      [3, 'ana@planta.pe'],
      [5, 'beto@planta.pe'],
    ]);
    expect(parseInvitationList('email,rol,app\nana@planta.pe', owner).header).toBe(true);
    // A header only heads the list: further down, it is a row like any other.
    expect(parseInvitationList('ana@planta.pe\nemail,rol', owner).rows[1]?.problems).toEqual([
      'El email no es válido.',
      'El rol «rol» no existe: usa Propietario, Administrador o Miembro.',
    ]);
  });

  it('says in Spanish what stops each row, all of it, before anything is sent', () => {
    const text = [
      'no-es-un-email, Miembro',
      ', Miembro',
      'ana@planta.pe, Jefe de turno',
      'beto@planta.pe, Miembro, Hornos',
      'carla@planta.pe, Miembro, Calderas Viejas',
      'dario@planta.pe, Miembro, Control Max 360, Lima',
      'ANA@planta.pe, Administrador',
      'con espacio@planta.pe',
    ].join('\n');
    expect(read(text)).toEqual([
      [1, 'no-es-un-email', 'miembro', null, ['El email no es válido.']],
      [2, '', 'miembro', null, ['Falta el email.']],
      [3, 'ana@planta.pe', null, null, ['El rol «Jefe de turno» no existe: usa Propietario, Administrador o Miembro.']],
      [4, 'beto@planta.pe', 'miembro', null, ['La empresa no tiene licencia de «Hornos».']],
      [5, 'carla@planta.pe', 'miembro', 9, ['La licencia de Calderas Viejas ha vencido.']],
      [6, 'dario@planta.pe', 'miembro', 2, ['Sobran columnas: cada línea lleva email, rol y app.']],
      [7, 'ana@planta.pe', 'administrador', null, ['Repetido: ya está en la línea 3.']],
      [8, 'con espacio@planta.pe', 'miembro', null, ['El email no es válido.']],
    ]);
  });

  it("an administrator's list may not invite an owner: the row says who may", () => {
    expect(read('ana@planta.pe, Propietario', manager)).toEqual([
      [1, 'ana@planta.pe', 'propietario', null, ['Solo un propietario de la empresa puede invitar a un propietario.']],
    ]);
  });

  it('sends only the rows without problems, as the API takes them', () => {
    const { rows } = parseInvitationList('ana@planta.pe, Miembro, 2\nmal\nbeto@planta.pe, Administrador', owner);
    expect(rowsToSend(rows).map((entry) => entry.send)).toEqual([
      { email: 'ana@planta.pe', rol: 'miembro', idApp: 2 },
      { email: 'beto@planta.pe', rol: 'administrador' },
    ]);
  });

  it('splits CSV fields with quotes, doubled quotes inside', () => {
    expect(splitFields('"a@b.pe","Miembro","Control ""Max"", 360"')).toEqual([
      'a@b.pe',
      'Miembro',
      'Control "Max", 360',
    ]);
    expect(splitFields('a@b.pe;"Pesaje; Básculas"')).toEqual(['a@b.pe', 'Pesaje; Básculas']);
  });
});
