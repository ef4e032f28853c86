import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, configuredProviders, errorMessage, FALLBACK, theme, useSubmit } from '@portal/shared';
import { updateSettings } from '../../api/companies';
import type { Company } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { Panel } from '../../components/Page';
import { useLoad } from '../../hooks/useLoad';
import {
  draftOf,
  lockoutWarnings,
  NO_RULES,
  offeredMethods,
  type RulesDraft,
  rulesFromDraft,
  TEXT_SIGN_IN_RULES as T,
} from '../../rules/sign-in-rules';
import type { SectionProps } from './SectionParts';

const Form = styled.form`
  display: grid;
  gap: 16px;
  max-width: 640px;
  fieldset { margin: 0; padding: 8px 14px 12px; border: 1px solid ${theme.color.border}; border-radius: ${theme.radius}; }
  legend { padding: 0 6px; font-weight: 600; }
  label.check { display: flex; align-items: flex-start; gap: 10px; min-height: 44px; padding: 6px 0; }
  label.check input { width: 20px; height: 20px; margin: 2px 0 0; flex: none; }
  label.field { display: grid; gap: 6px; font-weight: 600; }
  textarea, input[type='text'] { width: 100%; box-sizing: border-box; min-height: 44px; padding: 8px 10px; font: inherit; }
  .hint { margin: 0; color: ${theme.color.muted}; font-size: 0.9rem; font-weight: normal; }
  .buttons { display: flex; flex-wrap: wrap; gap: 12px; }
`;

/**
 * The company's own rules for its members (networks, methods, session limits), with the warning before a rule that
 * would lock the person saving it out, and how it is undone. A platform administrator also lifts them all at once.
 */
export function SignInRulesSection({
  companyId,
  company,
  viewer,
  onSaved,
}: SectionProps & { company: Company; onSaved(company: Company): void }) {
  const [draft, setDraft] = useState<RulesDraft>(() => draftOf(company));
  const [accepted, setAccepted] = useState(false);
  const [invalid, setInvalid] = useState<string | null>(null);
  const { busy, message, submit } = useSubmit();

  // Google and Apple are offered only when this portal has them on; until it says, neither is shown.
  const providers = useLoad(() => configuredProviders(), FALLBACK.unexpected, []);
  const offered = offeredMethods(providers.data ?? (providers.error ? null : { google: false, apple: false }));
  const read = rulesFromDraft(draft, offered);
  // Only a member of the company is bound by its rules: a platform administrator is not.
  const warnings = 'rules' in read ? lockoutWarnings(read.rules, company.tuAcceso, !viewer.platform) : [];
  const change = (next: Partial<RulesDraft>) => {
    setDraft({ ...draft, ...next });
    setAccepted(false);
    setInvalid(null);
  };

  const send = (rules: typeof NO_RULES, saved: string) =>
    void submit({
      afterSuccess: 'ready',
      call: () => updateSettings(companyId, rules),
      success: (answer) => {
        // The answer of a change names no caller: the address and method read with the page still hold.
        onSaved({ ...answer, ...(company.tuAcceso ? { tuAcceso: company.tuAcceso } : {}) });
        setDraft(draftOf(answer));
        setAccepted(false);
        return saved;
      },
      failure: (caught) => errorMessage(caught, COMPANY_FALLBACK.settings),
    });

  const save = (event: FormEvent) => {
    event.preventDefault();
    if ('error' in read) {
      setInvalid(read.error);
      return;
    }
    send(read.rules, T.saved);
  };

  return (
    <Panel aria-labelledby="rules-title">
      <h2 id="rules-title">{T.title}</h2>
      <p>{T.intro}</p>
      <Form onSubmit={save} noValidate>
        {invalid && <Alert tone="error">{invalid}</Alert>}
        {message && (
          <Alert tone={message.tone} takesFocus>
            {message.text}
          </Alert>
        )}
        <label className="field">
          {T.networks}
          <textarea
            rows={3}
            value={draft.networks}
            disabled={busy}
            aria-describedby="networks-hint"
            onChange={(event) => change({ networks: event.target.value })}
          />
        </label>
        <p className="hint" id="networks-hint">
          {T.networksHint}
        </p>
        <fieldset>
          <legend>{T.methods}</legend>
          {offered.map((method) => (
            <label className="check" key={method}>
              <input
                type="checkbox"
                checked={draft.methods.includes(method)}
                disabled={busy}
                onChange={(event) =>
                  change({
                    methods: event.target.checked
                      ? [...draft.methods, method]
                      : draft.methods.filter((kept) => kept !== method),
                  })
                }
              />
              {T.methodNames[method]}
            </label>
          ))}
        </fieldset>
        <label className="field">
          {T.maxHours}
          <input
            type="text"
            inputMode="numeric"
            value={draft.maxHours}
            disabled={busy}
            aria-describedby="limit-hint"
            onChange={(event) => change({ maxHours: event.target.value })}
          />
        </label>
        <label className="field">
          {T.idleMinutes}
          <input
            type="text"
            inputMode="numeric"
            value={draft.idleMinutes}
            disabled={busy}
            aria-describedby="limit-hint"
            onChange={(event) => change({ idleMinutes: event.target.value })}
          />
        </label>
        <p className="hint" id="limit-hint">
          {T.limitHint}
        </p>
        {warnings.length > 0 && (
          <Alert tone="info">
            {warnings.map((warning) => (
              <span key={warning}>
                {warning}
                <br />
              </span>
            ))}
            {T.undo}
          </Alert>
        )}
        {warnings.length > 0 && (
          <label className="check">
            <input
              type="checkbox"
              checked={accepted}
              disabled={busy}
              onChange={(event) => setAccepted(event.target.checked)}
            />
            {T.confirm}
          </label>
        )}
        <div className="buttons">
          <Button type="submit" disabled={busy || (warnings.length > 0 && !accepted)}>
            {busy ? T.saving : T.save}
          </Button>
          {viewer.platform && (
            <Button type="button" $variant="secondary" disabled={busy} onClick={() => send(NO_RULES, T.lifted)}>
              {T.lift}
            </Button>
          )}
        </div>
      </Form>
    </Panel>
  );
}
