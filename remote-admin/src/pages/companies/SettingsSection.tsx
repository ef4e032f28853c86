import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, errorMessage, theme, useSubmit } from '@portal/shared';
import { updateSettings } from '../../api/companies';
import type { Company, DomainJoin } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { Panel } from '../../components/Page';
import type { SectionProps } from './SectionParts';
import { TEXT_COMPANY } from './texts';

const Form = styled.form`
  display: grid;
  gap: 16px;
  max-width: 640px;
  fieldset { margin: 0; padding: 8px 14px 12px; border: 1px solid ${theme.color.border}; border-radius: ${theme.radius}; }
  legend { padding: 0 6px; font-weight: 600; }
  label { display: flex; align-items: flex-start; gap: 10px; min-height: 44px; padding: 6px 0; }
  input { width: 20px; height: 20px; margin: 2px 0 0; flex: none; }
  .hint { margin: 0 0 0 30px; color: ${theme.color.muted}; font-size: 0.9rem; }
  button { justify-self: start; }
`;

/**
 * How a domain join enters (at once or after approval), and the second factor: whether the company's seats need one,
 * whether its members may trust a device, whether its provider's own counts.
 */
export function SettingsSection({
  companyId,
  company,
  onSaved,
}: SectionProps & { company: Company; onSaved(company: Company): void }) {
  const [join, setJoin] = useState<DomainJoin>(company.altaPorDominio);
  const [secondFactor, setSecondFactor] = useState(company.exigirSegundoFactor);
  const [trustedDevices, setTrustedDevices] = useState(company.permitirDispositivosConfiables);
  const [providerFactor, setProviderFactor] = useState(company.confiarSegundoFactorDelProveedor);
  const { busy, message, submit } = useSubmit();

  const save = (event: FormEvent) => {
    event.preventDefault();
    void submit({
      afterSuccess: 'ready',
      call: () =>
        updateSettings(companyId, {
          altaPorDominio: join,
          exigirSegundoFactor: secondFactor,
          permitirDispositivosConfiables: trustedDevices,
          confiarSegundoFactorDelProveedor: providerFactor,
        }),
      success: (saved) => {
        onSaved(saved);
        return TEXT_COMPANY.settingsSaved;
      },
      failure: (caught) => errorMessage(caught, COMPANY_FALLBACK.settings),
    });
  };

  return (
    <Panel aria-labelledby="settings-title">
      <h2 id="settings-title">{TEXT_COMPANY.settings}</h2>
      <Form onSubmit={save}>
        {message && (
          <Alert tone={message.tone} takesFocus>
            {message.text}
          </Alert>
        )}
        <fieldset>
          <legend>{TEXT_COMPANY.domainJoin}</legend>
          {(
            [
              ['automatica', TEXT_COMPANY.joinAutomatic],
              ['aprobacion', TEXT_COMPANY.joinApproval],
            ] as const
          ).map(([value, label]) => (
            <label key={value}>
              <input
                type="radio"
                name="domain-join"
                value={value}
                checked={join === value}
                disabled={busy}
                onChange={() => setJoin(value)}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{TEXT_COMPANY.secondFactor}</legend>
          <label>
            <input
              type="checkbox"
              checked={secondFactor}
              disabled={busy}
              aria-describedby="second-factor-hint"
              onChange={(event) => setSecondFactor(event.target.checked)}
            />
            {TEXT_COMPANY.requireSecondFactor}
          </label>
          <p className="hint" id="second-factor-hint">
            {TEXT_COMPANY.requireSecondFactorHint}
          </p>
          <label>
            <input
              type="checkbox"
              checked={trustedDevices}
              disabled={busy}
              aria-describedby="trusted-devices-hint"
              onChange={(event) => setTrustedDevices(event.target.checked)}
            />
            {TEXT_COMPANY.allowTrustedDevices}
          </label>
          <p className="hint" id="trusted-devices-hint">
            {TEXT_COMPANY.allowTrustedDevicesHint}
          </p>
          <label>
            <input
              type="checkbox"
              checked={providerFactor}
              disabled={busy}
              aria-describedby="provider-factor-hint"
              onChange={(event) => setProviderFactor(event.target.checked)}
            />
            {TEXT_COMPANY.trustProviderSecondFactor}
          </label>
          <p className="hint" id="provider-factor-hint">
            {TEXT_COMPANY.trustProviderSecondFactorHint}
          </p>
        </fieldset>
        <Button type="submit" disabled={busy}>
          {busy ? TEXT_COMPANY.saving : TEXT_COMPANY.save}
        </Button>
      </Form>
    </Panel>
  );
}
