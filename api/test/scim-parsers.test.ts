// The hand-written SCIM parsers (no database): filters (RFC 7644 §3.4.2.2) and PatchOp bodies (§3.5.2), with the
// booleans Microsoft Entra ID sends as strings. A library that reads "False" as true (`!!value`) would fail here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScimError } from '../src/domain/companies/scim/errors.js';
import { exactUserName, parseFilter, scimBoolean } from '../src/domain/companies/scim/filter.js';
import { applyPatch, blankDraft, draftFromResource } from '../src/domain/companies/scim/patch.js';
import { projectAnswer, projectResource } from '../src/domain/companies/scim/projection.js';

const refused = (run: () => unknown, scimType: string) =>
  assert.throws(
    run,
    (error: unknown) => error instanceof ScimError && error.status === 400 && error.scimType === scimType,
  );

describe('SCIM booleans', () => {
  it('reads "False" in any case as false, never as a truthy string', () => {
    for (const value of ['False', 'false', 'FALSE', ' false ', false]) assert.equal(scimBoolean(value), false);
    for (const value of ['True', 'true', 'TRUE', true]) assert.equal(scimBoolean(value), true);
    for (const value of ['yes', '0', '1', 0, 1, null, undefined, {}, '']) assert.equal(scimBoolean(value), undefined);
  });
});

describe('SCIM filters', () => {
  it('parses comparisons, presence, and/or with precedence and parentheses', () => {
    assert.deepEqual(parseFilter('userName eq "ana@minera.cl"'), {
      kind: 'compare',
      attribute: 'userName',
      op: 'eq',
      value: 'ana@minera.cl',
    });
    assert.deepEqual(parseFilter('externalId pr'), { kind: 'present', attribute: 'externalId' });
    const tree = parseFilter('userName sw "a" or displayName co "b" and active eq true');
    assert.equal(tree.kind, 'or');
    assert.equal(tree.kind === 'or' && tree.right.kind, 'and');
    const grouped = parseFilter('(userName sw "a" or displayName co "b") and active eq "False"');
    assert.equal(grouped.kind, 'and');
    assert.deepEqual(grouped.kind === 'and' && grouped.right, {
      kind: 'compare',
      attribute: 'active',
      op: 'eq',
      value: false,
    });
  });

  it('knows the attribute paths directories send, case-insensitively and with the core URN', () => {
    for (const path of [
      'emails[type eq "work"].value',
      'emails[ type eq "work" ].value',
      'EMAILS[TYPE EQ "work"].VALUE',
      'emails.value',
    ]) {
      assert.equal((parseFilter(`${path} eq "x@y.cl"`) as { attribute: string }).attribute, 'emails', path);
    }
    assert.equal(
      (parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "x"') as { attribute: string }).attribute,
      'userName',
    );
    assert.equal((parseFilter('USERNAME EQ "x"') as { op: string }).op, 'eq');
    assert.equal(exactUserName(parseFilter('userName eq "Ana@Minera.cl"')), 'Ana@Minera.cl');
    assert.equal(exactUserName(parseFilter('userName eq "a" and active eq true')), undefined);
    assert.equal((parseFilter('userName eq "comillas \\" y \\\\"') as { value: string }).value, 'comillas " y \\');
  });

  it('reads a bare word as the string it spells (as the reference collection sends it)', () => {
    assert.deepEqual(parseFilter('userName sw O'), { kind: 'compare', attribute: 'userName', op: 'sw', value: 'O' });
    assert.deepEqual(parseFilter('userName eq 42'), { kind: 'compare', attribute: 'userName', op: 'eq', value: '42' });
    assert.deepEqual(parseFilter('meta.Created gt 2015-10-10T14:38:21.8617979-07:00'), {
      kind: 'compare',
      attribute: 'created',
      op: 'gt',
      value: '2015-10-10T21:38:21.861Z',
    });
  });

  it('refuses anything else with invalidFilter', () => {
    for (const filter of [
      '',
      'title eq "x"',
      'userName gt "a"',
      'userName le "a"',
      'not (userName eq "a")',
      'userName',
      'userName eq',
      'userName eq "a" and',
      'userName eq "a" userName eq "b"',
      '(userName eq "a"',
      'userName eq "a")',
      'userName eq true',
      'userName eq null',
      'meta.created gt "2020-13-45"',
      'meta.created sw "2020"',
      'userName eq "sin cerrar',
      'emails[type eq "home"].value eq "x"',
      'active co "tr"',
      'active eq "quizá"',
      `${'('.repeat(30)}userName eq "a"${')'.repeat(30)}`,
      'x'.repeat(1001),
    ]) {
      refused(() => parseFilter(filter), 'invalidFilter');
    }
  });
});

describe('SCIM PatchOp', () => {
  const person = () => ({ ...blankDraft(), userName: 'ana@minera.cl', givenName: 'Ana', familyName: 'Rojas' });

  it("applies Entra ID's operations: capitalised ops, string booleans, the work email path", () => {
    const off = applyPatch(person(), { Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    assert.equal(off.active, false);
    const on = applyPatch(off, { Operations: [{ op: 'replace', value: { active: 'True' } }] });
    assert.equal(on.active, true);
    const email = applyPatch(person(), {
      Operations: [
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'ana.rojas@minera.cl' },
        { op: 'Replace', path: 'name.familyName', value: 'Rojas Pérez' },
        { op: 'Add', path: 'externalId', value: 'e-1' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'X' },
        { op: 'Add', path: 'title', value: 'Geóloga' },
      ],
    });
    assert.deepEqual(email, {
      userName: 'ana.rojas@minera.cl',
      externalId: 'e-1',
      givenName: 'Ana',
      familyName: 'Rojas Pérez',
      displayName: '',
      active: true,
    });
  });

  it("applies a value object without a path (dotted keys, name objects, Okta's booleans)", () => {
    const next = applyPatch(person(), {
      Operations: [
        { op: 'replace', value: { 'name.givenName': 'Anita', displayName: 'Anita R.', active: false } },
        { op: 'replace', path: 'name', value: { familyName: 'R.' } },
      ],
    });
    assert.equal(next.givenName, 'Anita');
    assert.equal(next.familyName, 'R.');
    assert.equal(next.displayName, 'Anita R.');
    assert.equal(next.active, false);
  });

  it('removes what may be removed and refuses the rest', () => {
    const removed = applyPatch(
      { ...person(), externalId: 'e', displayName: 'A' },
      {
        Operations: [
          { op: 'remove', path: 'externalId' },
          { op: 'remove', path: 'displayName' },
        ],
      },
    );
    assert.equal(removed.externalId, null);
    assert.equal(removed.displayName, '');
    refused(() => applyPatch(person(), { Operations: [{ op: 'remove', path: 'userName' }] }), 'mutability');
    refused(() => applyPatch(person(), { Operations: [{ op: 'remove', path: 'active' }] }), 'mutability');
    refused(() => applyPatch(person(), { Operations: [{ op: 'remove' }] }), 'noTarget');
    refused(
      () => applyPatch(person(), { Operations: [{ op: 'replace', path: 'active', value: 'si' }] }),
      'invalidValue',
    );
    refused(() => applyPatch(person(), { Operations: [{ op: 'replace', path: 'members', value: [] }] }), 'invalidPath');
    refused(() => applyPatch(person(), { Operations: [{ op: 'copy', path: 'active', value: true }] }), 'invalidSyntax');
    refused(() => applyPatch(person(), { Operations: [] }), 'invalidSyntax');
    refused(() => applyPatch(person(), { operations: 'no' }), 'invalidSyntax');
    refused(() => applyPatch(person(), []), 'invalidSyntax');
    refused(() => applyPatch(person(), { Operations: [{ op: 'replace', path: 'active' }] }), 'invalidValue');
    refused(
      () => applyPatch(person(), { Operations: [{ op: 'replace', path: 'userName', value: 7 }] }),
      'invalidValue',
    );
    refused(
      () =>
        applyPatch(person(), {
          Operations: Array.from({ length: 101 }, () => ({ op: 'add', path: 'title', value: 'x' })),
        }),
      'tooMany',
    );
  });

  it('reads POST and PUT bodies: userName wins over the emails, what is missing is empty', () => {
    const draft = draftFromResource({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id: 'ignored',
      meta: { resourceType: 'User' },
      userName: 'ana@minera.cl',
      emails: [{ value: 'otra@minera.cl', type: 'work', primary: true }],
      active: 'False',
      password: 'nunca',
    });
    assert.deepEqual(draft, { ...blankDraft(), userName: 'ana@minera.cl', active: false });
    assert.equal(draftFromResource({ emails: [{ value: 'solo@minera.cl', type: 'work' }] }).userName, 'solo@minera.cl');
    refused(() => draftFromResource({ externalId: 'x' }), 'invalidValue');
    refused(() => draftFromResource('texto'), 'invalidSyntax');
    refused(() => draftFromResource({ userName: 'a'.repeat(255) }), 'invalidValue');
  });
});

describe('SCIM attributes and excludedAttributes', () => {
  const user = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: 'u1',
    userName: 'ana@empresa.cl',
    name: { givenName: 'Ana', familyName: 'Soto', formatted: 'Ana Soto' },
    emails: [{ value: 'ana@empresa.cl', type: 'work', primary: true }],
    active: true,
  };

  it('keeps what is asked (any case, with the core URN, a sub-attribute, a value filter) and always id and schemas', () => {
    assert.deepEqual(projectResource(user, 'USERNAME, Name.givenName', undefined), {
      schemas: user.schemas,
      id: 'u1',
      userName: 'ana@empresa.cl',
      name: { givenName: 'Ana' },
    });
    assert.deepEqual(Object.keys(projectResource(user, 'emails[type eq "work"]', undefined)), [
      'schemas',
      'id',
      'emails',
    ]);
    assert.deepEqual(projectResource(user, 'urn:ietf:params:scim:schemas:core:2.0:User:emails.value', undefined), {
      schemas: user.schemas,
      id: 'u1',
      emails: [{ value: 'ana@empresa.cl' }],
    });
    assert.deepEqual(projectResource(user, 'id,nothing', undefined), { schemas: user.schemas, id: 'u1' });
  });

  it('leaves out what is excluded but never id or schemas, and narrows each resource of a list', () => {
    assert.deepEqual(projectResource(user, undefined, 'emails,name.formatted,id,schemas'), {
      schemas: user.schemas,
      id: 'u1',
      userName: 'ana@empresa.cl',
      name: { givenName: 'Ana', familyName: 'Soto' },
      active: true,
    });
    const list = { totalResults: 1, Resources: [user] };
    assert.deepEqual(projectAnswer(list, { attributes: 'active' }), {
      totalResults: 1,
      Resources: [{ schemas: user.schemas, id: 'u1', active: true }],
    });
    assert.equal(projectAnswer(user, {}), user);
  });
});
