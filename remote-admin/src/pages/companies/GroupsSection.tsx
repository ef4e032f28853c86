import { useCallback, useState } from 'react';
import { Button } from '@portal/shared';
import {
  createGroupRule,
  deleteGroupRule,
  listCompanyAppRoles,
  listGroupRules,
  listGroupWaiting,
} from '../../api/companies';
import type { CompanyAppRoles, GroupRule, Licence } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CheckField, FormDialog, FormText } from '../../components/FormDialog';
import { LoadState } from '../../components/LoadState';
import { Panel } from '../../components/Page';
import { SelectField } from '../../components/SelectField';
import { StackedTable } from '../../components/StackedTable';
import { useLoad } from '../../hooks/useLoad';
import { appRoleNames, appRolesOf } from '../../rules/app-roles';
import { companyRoleLabel, memberName } from '../../rules/companies';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

type RuleForm = { grupo: string; idApp: number; rol: '' | 'administrador' | 'miembro'; rolesApp: string[] };

/** What a rule gives, in a line: the app's seat (with the app's roles by name, if any) and/or the role. */
function gives(rule: GroupRule, catalogue: readonly CompanyAppRoles[] | null): string {
  return [
    rule.app ? TEXT_COMPANY.ruleSeat(rule.app.nombre) : null,
    rule.rol ? TEXT_COMPANY.ruleRole(companyRoleLabel(rule.rol)) : null,
    rule.app && rule.rolesApp.length > 0
      ? TEXT_COMPANY.ruleAppRoles(appRoleNames(catalogue, rule.app.id, rule.rolesApp).join(', '))
      : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

const toggled = (keys: string[], clave: string, on: boolean) =>
  on ? [...new Set([...keys, clave])] : keys.filter((key) => key !== clave);

/**
 * 'Grupos del directorio': the rules that tie a group of the company's directory to seats of an app and/or a role,
 * with how many people each group holds now; adding and taking away a rule; and who waits for a seat.
 */
export function GroupsSection({ companyId, announce, licences }: SectionProps & { licences: Licence[] }) {
  const rules = useLoad(() => listGroupRules(companyId), COMPANY_FALLBACK.groupRules, [companyId]);
  const waiting = useLoad(() => listGroupWaiting(companyId), COMPANY_FALLBACK.groupWaiting, [companyId]);
  // The roles the company may give, by app: offered in a new rule and naming the rules' roles.
  const appRoles = useLoad(() => listCompanyAppRoles(companyId), COMPANY_FALLBACK.roles, [companyId]);
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'remove'; rule: GroupRule } | null>(null);
  const close = useCallback(() => setDialog(null), []);
  const appName = (id: number) => licences.find((l) => l.app.id === id)?.app.nombre ?? `App ${id}`;
  const reload = () => {
    rules.reload();
    waiting.reload();
  };

  return (
    <Panel aria-labelledby="groups-title">
      <SectionHead>
        <h2 id="groups-title">{TEXT_COMPANY.groups}</h2>
        <Button
          onClick={() => {
            // Read again as the dialog opens: a role deleted since the page opened is not offered.
            appRoles.reload();
            setDialog({ kind: 'add' });
          }}
        >
          {TEXT_COMPANY.addRule}
        </Button>
      </SectionHead>
      <p>{TEXT_COMPANY.groupsIntro}</p>
      <LoadState state={rules} loading={TEXT_COMPANY.loadingRules} empty={TEXT_COMPANY.noRules}>
        {(list) => (
          <StackedTable
            aria-label={TEXT_COMPANY.rulesTable}
            columns={[TEXT_COMPANY.colGroup, TEXT_COMPANY.colGives, TEXT_COMPANY.colPeople, TEXT_COMPANY.colActions]}
          >
            {list.map((rule) => (
              <tr key={rule.id}>
                <td className="lead">
                  {rule.grupo}
                  {!rule.grupoRecibido && <span className="sub">{TEXT_COMPANY.groupNotReceived}</span>}
                </td>
                <td data-label={TEXT_COMPANY.colGives}>{gives(rule, appRoles.data)}</td>
                <td data-label={TEXT_COMPANY.colPeople}>{rule.personas}</td>
                <td className="actions">
                  <Button
                    $variant="danger"
                    aria-label={TEXT_COMPANY.removeRuleOf(rule.grupo)}
                    onClick={() => setDialog({ kind: 'remove', rule })}
                  >
                    {TEXT_COMPANY.remove}
                  </Button>
                </td>
              </tr>
            ))}
          </StackedTable>
        )}
      </LoadState>
      <h3 id="waiting-title">{TEXT_COMPANY.waitingTitle}</h3>
      <LoadState state={waiting} loading={TEXT_COMPANY.loadingWaiting} empty={TEXT_COMPANY.noneWaiting}>
        {(people) => (
          <StackedTable
            aria-label={TEXT_COMPANY.waitingTitle}
            columns={[TEXT_COMPANY.colMember, TEXT_COMPANY.app, TEXT_COMPANY.colWaitingSince]}
          >
            {people.map((person) => (
              <tr key={`${person.idApp}-${person.idUsuario}`}>
                <td className="lead">
                  {memberName(person)}
                  {memberName(person) !== person.email && <span className="sub">{person.email}</span>}
                </td>
                <td data-label={TEXT_COMPANY.app}>{appName(person.idApp)}</td>
                <td className="nowrap" data-label={TEXT_COMPANY.colWaitingSince}>
                  {new Date(person.desde).toLocaleDateString('es-ES')}
                </td>
              </tr>
            ))}
          </StackedTable>
        )}
      </LoadState>
      {dialog?.kind === 'add' && (
        <FormDialog<RuleForm>
          title={TEXT_COMPANY.addRule}
          initial={{ grupo: '', idApp: licences[0]?.app.id ?? 0, rol: '', rolesApp: [] }}
          labels={{
            grupo: TEXT_COMPANY.colGroup,
            idApp: TEXT_COMPANY.app,
            rol: TEXT_COMPANY.ruleRoleField,
            rolesApp: TEXT_COMPANY.ruleAppRolesField,
          }}
          validate={(form) =>
            !form.grupo.trim()
              ? TEXT_COMPANY.ruleGroupRequired
              : !form.idApp && !form.rol
                ? TEXT_COMPANY.ruleGivesNothing
                : null
          }
          onSubmit={async (form) => {
            await createGroupRule(companyId, {
              grupo: form.grupo.trim(),
              ...(form.idApp ? { idApp: form.idApp } : {}),
              ...(form.rol ? { rol: form.rol } : {}),
              ...(form.idApp && form.rolesApp.length > 0 ? { rolesApp: form.rolesApp } : {}),
            });
            setDialog(null);
            announce(TEXT_COMPANY.ruleAdded(form.grupo.trim()));
            reload();
          }}
          onClose={close}
        >
          {({ form, set, saving, bind }) => (
            <>
              <FormText label={TEXT_COMPANY.groupName} wide {...bind('grupo')} />
              <SelectField<number>
                id="rule-app"
                label={TEXT_COMPANY.ruleAppField}
                options={[
                  { value: 0, label: TEXT_COMPANY.ruleNoApp },
                  ...licences.map((l) => ({ value: l.app.id, label: l.app.nombre })),
                ]}
                {...bind('idApp')}
                onChange={(idApp) => {
                  set('idApp', idApp);
                  // Roles belong to one app: another app's are not carried over.
                  set('rolesApp', []);
                }}
              />
              <SelectField<RuleForm['rol']>
                id="rule-role"
                label={TEXT_COMPANY.ruleRoleField}
                options={[
                  { value: '', label: TEXT_COMPANY.ruleNoRole },
                  { value: 'administrador', label: companyRoleLabel('administrador') },
                  { value: 'miembro', label: companyRoleLabel('miembro') },
                ]}
                {...bind('rol')}
              />
              {appRolesOf(appRoles.data, form.idApp).length > 0 && (
                <fieldset className="wide">
                  <legend>{TEXT_COMPANY.ruleAppRolesOf(appName(form.idApp))}</legend>
                  <p className="note">{TEXT_COMPANY.ruleAppRolesHint}</p>
                  {appRolesOf(appRoles.data, form.idApp).map((role) => (
                    <CheckField
                      key={role.clave}
                      label={TEXT_COMPANY.roleOption(role.nombre, role.clave)}
                      value={form.rolesApp.includes(role.clave)}
                      onChange={(on) => set('rolesApp', toggled(form.rolesApp, role.clave, on))}
                      disabled={saving}
                    />
                  ))}
                </fieldset>
              )}
            </>
          )}
        </FormDialog>
      )}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title={TEXT_COMPANY.removeRuleTitle(dialog.rule.grupo)}
          text={TEXT_COMPANY.removeRuleText}
          confirmLabel={TEXT_COMPANY.remove}
          fallback={COMPANY_FALLBACK.groupRule}
          onClose={close}
          onConfirm={async () => {
            await deleteGroupRule(companyId, dialog.rule.id);
            setDialog(null);
            announce(TEXT_COMPANY.ruleRemoved(dialog.rule.grupo));
            reload();
          }}
        />
      )}
    </Panel>
  );
}
