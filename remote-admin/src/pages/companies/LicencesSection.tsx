import { useCallback, useState } from 'react';
import { Alert, Button, Input, type AppWithPlans } from '@portal/shared';
import { changeLicence, listAppsWithPlans, sellLicence } from '../../api/companies';
import type { Licence } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { FormDialog } from '../../components/FormDialog';
import { LoadState } from '../../components/LoadState';
import { FieldLabel, Panel } from '../../components/Page';
import { SelectField } from '../../components/SelectField';
import { StackedTable } from '../../components/StackedTable';
import { StatusPill } from '../../components/StatusPill';
import { useLoad } from '../../hooks/useLoad';
import {
  dayFromExpiry,
  expiryFromDay,
  licenceProblem,
  licenceStatus,
  platformActions,
  seatCountsText,
} from '../../rules/companies';
import { MoreSeatsHelp } from './MoreSeatsHelp';
import { SectionHead, type SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

type Editing = { kind: 'sell' } | { kind: 'change'; licence: Licence } | null;

/** The company's licences: seats bought, in use, free, over; the expiry; a platform administrator sells and changes. */
export function LicencesSection({
  companyId,
  viewer,
  announce,
  companyName,
  licences,
  error,
  reload,
}: SectionProps & { licences: Licence[] | null; error: string | null; reload(): void }) {
  const { sellLicences } = platformActions(viewer);
  const [editing, setEditing] = useState<Editing>(null);
  const close = useCallback(() => setEditing(null), []);
  const now = Date.now();

  return (
    <Panel aria-labelledby="licences-title">
      <SectionHead>
        <h2 id="licences-title">{TEXT_COMPANY.licences}</h2>
        {sellLicences && <Button onClick={() => setEditing({ kind: 'sell' })}>{TEXT_COMPANY.sellLicence}</Button>}
      </SectionHead>
      {viewer.platform ? (
        <p>{TEXT_COMPANY.licenceHint}</p>
      ) : (
        <>
          <p>{TEXT_COMPANY.licenceHintCompany}</p>
          <MoreSeatsHelp company={companyName} />
        </>
      )}
      <LoadState
        state={{ data: licences, error, reload }}
        loading={TEXT_COMPANY.loadingLicences}
        empty={TEXT_COMPANY.noLicences}
      >
        {(list) => (
          <StackedTable
            aria-label={TEXT_COMPANY.licences}
            columns={[
              TEXT_COMPANY.app,
              TEXT_COMPANY.bought,
              TEXT_COMPANY.inUse,
              TEXT_COMPANY.free,
              TEXT_COMPANY.over,
              TEXT_COMPANY.expires,
              sellLicences && TEXT_COMPANY.colActions,
            ]}
          >
            {list.map((licence) => {
              const status = licenceStatus(licence, now);
              return (
                <tr key={licence.id}>
                  <td className="lead">
                    {licence.app.nombre}
                    <span className="sub">
                      {licence.plan.nombre} · {seatCountsText(licence)}
                    </span>
                    {licence.aviso && <Alert tone="info">{licence.aviso}</Alert>}
                  </td>
                  <td data-label={TEXT_COMPANY.bought}>{licence.puestos}</td>
                  <td data-label={TEXT_COMPANY.inUse}>{licence.enUso}</td>
                  <td data-label={TEXT_COMPANY.free}>{licence.libres}</td>
                  <td data-label={TEXT_COMPANY.over}>
                    {licence.excedidos > 0 ? <StatusPill $tone="warning">{licence.excedidos}</StatusPill> : 0}
                  </td>
                  <td data-label={TEXT_COMPANY.expires}>
                    <StatusPill
                      $tone={status.tone === 'ok' ? 'neutral' : status.tone === 'expired' ? 'danger' : 'warning'}
                    >
                      {status.text}
                    </StatusPill>
                  </td>
                  {sellLicences && (
                    <td className="actions">
                      <Button
                        $variant="secondary"
                        aria-label={TEXT_COMPANY.changeLicenceOf(licence.app.nombre)}
                        onClick={() => setEditing({ kind: 'change', licence })}
                      >
                        {TEXT_COMPANY.changeLicence}
                      </Button>
                    </td>
                  )}
                </tr>
              );
            })}
          </StackedTable>
        )}
      </LoadState>
      {editing && (
        <LicenceDialog
          editing={editing}
          onClose={close}
          onSave={async (form) => {
            const body = {
              idPlan: form.idPlan,
              puestos: Number(form.puestos),
              fechaVencimiento: expiryFromDay(form.day),
            };
            if (editing.kind === 'sell') await sellLicence(companyId, { idApp: form.idApp, ...body });
            else await changeLicence(companyId, editing.licence.app.id, body);
            setEditing(null);
            announce(editing.kind === 'sell' ? TEXT_COMPANY.licenceSold : TEXT_COMPANY.licenceChanged);
            reload();
          }}
        />
      )}
    </Panel>
  );
}

interface LicenceForm {
  idApp: number;
  idPlan: number;
  puestos: string;
  day: string;
}

function LicenceDialog({
  editing,
  onClose,
  onSave,
}: {
  editing: Exclude<Editing, null>;
  onClose(): void;
  onSave(form: LicenceForm): Promise<void>;
}) {
  const apps = useLoad(listAppsWithPlans, COMPANY_FALLBACK.apps, []);
  const licence = editing.kind === 'change' ? editing.licence : null;
  const initial: LicenceForm = licence
    ? {
        idApp: licence.app.id,
        idPlan: licence.plan.id,
        puestos: String(licence.puestos),
        day: dayFromExpiry(licence.fechaVencimiento),
      }
    : { idApp: 0, idPlan: 0, puestos: '', day: '' };
  const plansOf = (list: AppWithPlans[], idApp: number) => list.find((app) => app.id === idApp)?.planes ?? [];

  return (
    <FormDialog
      title={licence ? TEXT_COMPANY.changeLicenceTitle(licence.app.nombre) : TEXT_COMPANY.sellLicenceTitle}
      initial={initial}
      labels={{
        idApp: TEXT_COMPANY.app,
        idPlan: TEXT_COMPANY.plan,
        puestos: TEXT_COMPANY.seatsBought,
        fechaVencimiento: TEXT_COMPANY.expiry,
      }}
      validate={licenceProblem}
      onSubmit={onSave}
      onClose={onClose}
    >
      {({ form, set, saving }) => (
        <>
          {apps.error && (
            <div className="wide">
              <Alert>{apps.error}</Alert>
            </div>
          )}
          <SelectField
            id="licence-app"
            label={TEXT_COMPANY.app}
            value={form.idApp}
            disabled={saving || Boolean(licence)}
            options={[
              { value: 0, label: TEXT_COMPANY.chooseApp },
              ...(licence
                ? [{ value: licence.app.id, label: licence.app.nombre }]
                : (apps.data ?? []).map((app) => ({ value: app.id, label: app.nombre }))),
            ]}
            onChange={(value) => {
              set('idApp', value);
              set('idPlan', 0);
            }}
          />
          <SelectField
            id="licence-plan"
            label={TEXT_COMPANY.plan}
            value={form.idPlan}
            disabled={saving || !form.idApp}
            options={[
              { value: 0, label: TEXT_COMPANY.choosePlan },
              ...plansOf(apps.data ?? [], form.idApp).map((plan) => ({ value: plan.id, label: plan.nombre })),
              // The licence's own plan, while the catalogue loads.
              ...(licence && !apps.data ? [{ value: licence.plan.id, label: licence.plan.nombre }] : []),
            ]}
            onChange={(value) => set('idPlan', value)}
          />
          <FieldLabel htmlFor="licence-seats">
            {TEXT_COMPANY.seatsBought}
            <Input
              id="licence-seats"
              type="number"
              inputMode="numeric"
              min={1}
              max={100000}
              value={form.puestos}
              disabled={saving}
              onChange={(event) => set('puestos', event.target.value)}
            />
          </FieldLabel>
          <FieldLabel htmlFor="licence-expiry">
            {TEXT_COMPANY.expiry}
            <Input
              id="licence-expiry"
              type="date"
              value={form.day}
              disabled={saving}
              onChange={(event) => set('day', event.target.value)}
            />
          </FieldLabel>
        </>
      )}
    </FormDialog>
  );
}
