import { useEffect, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, Modal, type TextFile, TextFileField, errorMessage, theme } from '@portal/shared';
import { inviteList } from '../../api/companies';
import type { CompanyRole, InvitationListResult } from '../../api/company-types';
import { COMPANY_FALLBACK } from '../../api/texts';
import { StackedTable } from '../../components/StackedTable';
import { companyRoleLabel } from '../../rules/companies';
import {
  type ListApp,
  type ListRow,
  MAX_LIST_ROWS,
  parseInvitationList,
  rowsToSend,
} from '../../rules/invitation-list';
import { TEXT_ADMIN } from '../../texts';
import { TEXT_COMPANY } from './texts';

/** Rows sent in one request: few enough that the progress moves and every request ends well within its deadline. */
export const LIST_CHUNK = 25;

const T = TEXT_COMPANY;

const csvFile: TextFile = {
  label: T.loadCsvFile,
  accept: '.csv,.txt,text/csv,text/plain',
  maxBytes: 1024 * 1024,
  loaded: T.csvLoaded,
  tooLarge: T.csvTooLarge,
  unreadable: T.csvUnreadable,
};

const Body = styled.div`
  display: grid;
  gap: 14px;
  p { margin: 0; }
  .note { color: ${theme.color.muted}; font-size: 0.875rem; overflow-wrap: anywhere; }
  .ok { color: ${theme.color.success}; font-weight: 600; }
  .wrong { color: ${theme.color.danger}; }
  .waiting { color: ${theme.color.muted}; }
  progress { width: 100%; height: 12px; }
  h3 { margin: 0; font-size: 1.05rem; }
  h3:focus { outline: 3px solid ${theme.color.primary}; outline-offset: 2px; }
  .actions { display: flex; flex-wrap: wrap; gap: 12px; justify-content: flex-end; }
`;

/** What became of a row once sent: its words, and whether it reads as done, as nothing to do or as a problem. */
interface Outcome {
  text: string;
  kind: 'ok' | 'neutral' | 'wrong';
  result?: InvitationListResult['resultado'];
}

function outcomeOf(result: InvitationListResult): Outcome {
  if (result.resultado === 'error') return { text: result.mensaje ?? T.rowNotSent, kind: 'wrong', result: 'error' };
  return {
    text: T.rowOutcomes[result.resultado] ?? result.resultado,
    kind: result.resultado === 'invitada' ? 'ok' : 'neutral',
    result: result.resultado,
  };
}

type Phase = 'editing' | 'sending' | 'done';

/**
 * 'Invitar a varias personas': a list pasted or loaded from a CSV, each person shown with what stops them before
 * anything is sent; then sent in parts of LIST_CHUNK rows, the progress and each row's result shown as they come.
 * The API's mail limit of the hour stops the sending: the rows left say so and can be sent later.
 */
export function InvitationListDialog({
  companyId,
  roles,
  apps,
  onSent,
  onClose,
}: {
  companyId: number;
  /** The roles the viewer may give. */
  roles: readonly CompanyRole[];
  /** The company's apps, from its licences. */
  apps: readonly ListApp[];
  /** Some rows were sent (the invitations' list is to be read again): how many were invited. */
  onSent(invited: number): void;
  onClose(): void;
}) {
  const [text, setText] = useState('');
  const parsed = useMemo(() => parseInvitationList(text, { roles, apps }), [text, roles, apps]);
  const toSend = useMemo(() => rowsToSend(parsed.rows), [parsed]);
  const tooLong = parsed.rows.length > MAX_LIST_ROWS;
  const [phase, setPhase] = useState<Phase>('editing');
  const [outcomes, setOutcomes] = useState<Record<number, Outcome>>({});
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [failure, setFailure] = useState<string | null>(null);
  const closed = useRef(false);
  const result = useRef<HTMLHeadingElement>(null);
  useEffect(
    () => () => {
      closed.current = true;
    },
    [],
  );
  useEffect(() => {
    if (phase === 'done') result.current?.focus();
  }, [phase]);

  const send = async () => {
    if (phase !== 'editing' || toSend.length === 0 || tooLong) return;
    const total = toSend.length;
    const settled: Record<number, Outcome> = {};
    const queue = [...toSend];
    let inFlight: typeof queue = [];
    let done = 0;
    let invited = 0;
    setPhase('sending');
    setFailure(null);
    setOutcomes({});
    setProgress({ done, total });
    try {
      while (queue.length > 0 && !closed.current) {
        inFlight = queue.splice(0, LIST_CHUNK);
        const results = await inviteList(
          companyId,
          inFlight.map((entry) => entry.send),
        );
        const again: typeof queue = [];
        let limit: string | null = null;
        for (const [i, answer] of results.entries()) {
          const entry = inFlight[i];
          if (!entry) continue;
          // The API did not get to it (its request ran long): it goes again, first.
          if (answer.codigo === 'NO_PROCESADA') {
            again.push(entry);
            continue;
          }
          settled[entry.row.line] = outcomeOf(answer);
          done += 1;
          if (answer.resultado === 'invitada') invited += 1;
          if (answer.codigo === 'INVITATION_MAIL_LIMIT') limit = answer.mensaje ?? T.rowNotSent;
        }
        inFlight = [];
        // A request that got to none of its rows would only repeat itself.
        if (again.length === results.length) throw new Error(T.rowNotSent);
        queue.unshift(...again);
        if (limit !== null) {
          // The hour's mails are spent: the rest would be refused one by one.
          for (const entry of queue) settled[entry.row.line] = { text: T.rowNotSentLimit(limit), kind: 'wrong' };
          queue.length = 0;
        }
        if (closed.current) break;
        setOutcomes({ ...settled });
        setProgress({ done, total });
      }
    } catch (error) {
      for (const entry of [...inFlight, ...queue]) settled[entry.row.line] = { text: T.rowNotSent, kind: 'wrong' };
      if (!closed.current) setFailure(errorMessage(error, COMPANY_FALLBACK.invitationList));
    }
    onSent(invited);
    if (closed.current) return;
    setOutcomes({ ...settled });
    setProgress({ done, total });
    setPhase('done');
  };

  const counts = Object.values(outcomes).reduce(
    (sum, outcome) => ({
      invited: sum.invited + (outcome.result === 'invitada' ? 1 : 0),
      members: sum.members + (outcome.result === 'ya_miembro' ? 1 : 0),
      pending: sum.pending + (outcome.result === 'ya_invitada' ? 1 : 0),
      errors: sum.errors + (outcome.kind === 'wrong' ? 1 : 0),
    }),
    { invited: 0, members: 0, pending: 0, errors: 0 },
  );
  const wrong = parsed.rows.filter((row) => row.problems.length > 0).length;
  // Rows the list itself stopped were never sent: they count with the errors.
  const summary = { ...counts, errors: counts.errors + wrong };

  const status = (row: ListRow) => {
    if (row.problems.length > 0) return <span className="wrong">{row.problems.join(' ')}</span>;
    const outcome = outcomes[row.line];
    if (outcome) return <span className={outcome.kind === 'neutral' ? undefined : outcome.kind}>{outcome.text}</span>;
    return <span className="waiting">{phase === 'editing' ? T.rowReady : T.rowWaiting}</span>;
  };

  return (
    <Modal title={T.inviteMany} onClose={onClose} width="960px">
      <Body>
        {failure && <Alert>{failure}</Alert>}
        <TextFileField
          label={T.listField}
          hint={T.listHint}
          value={text}
          onChange={setText}
          file={csvFile}
          disabled={phase !== 'editing'}
        />
        <div className="note">
          <p>{T.listExample(apps.find((app) => !app.vencida)?.nombre ?? null)}</p>
          <p>{T.listChoices(roles.map(companyRoleLabel).join(', '), apps.map((app) => app.nombre).join(', '))}</p>
        </div>
        {tooLong && <Alert>{T.listTooLong(parsed.rows.length, MAX_LIST_ROWS)}</Alert>}
        <div role="status">
          {phase === 'sending' && (
            <>
              <p>{T.sendingProgress(progress.done, progress.total)}</p>
              <progress value={progress.done} max={progress.total} aria-label={T.listProgress} />
            </>
          )}
        </div>
        {phase === 'done' && (
          <div>
            <h3 ref={result} tabIndex={-1}>
              {T.listResult}
            </h3>
            <p>{T.listSummary(summary)}</p>
          </div>
        )}
        {parsed.rows.length === 0 ? (
          <p className="note">{T.listEmpty}</p>
        ) : (
          <>
            {phase === 'editing' && <p>{T.listCounts(toSend.length, wrong)}</p>}
            <StackedTable aria-label={T.listTable} columns={[T.email, T.colLine, T.role, T.colApp, T.colStatus]}>
              {parsed.rows.map((row) => (
                <tr key={row.line}>
                  <td className="lead">{row.email || '—'}</td>
                  <td data-label={T.colLine}>{row.line}</td>
                  <td data-label={T.role}>{row.rol ? companyRoleLabel(row.rol) : row.rolText}</td>
                  <td data-label={T.colApp}>{row.app?.nombre ?? (row.appText || '—')}</td>
                  <td data-label={T.colStatus}>{status(row)}</td>
                </tr>
              ))}
            </StackedTable>
          </>
        )}
        <div className="actions">
          <Button $variant="secondary" onClick={onClose}>
            {phase === 'editing' ? TEXT_ADMIN.cancel : TEXT_ADMIN.close}
          </Button>
          {phase !== 'done' && (
            <Button
              disabled={phase === 'editing' && (toSend.length === 0 || tooLong)}
              aria-disabled={phase === 'sending' ? true : undefined}
              onClick={() => void send()}
            >
              {phase === 'sending' ? T.sendingList : T.sendList(toSend.length)}
            </Button>
          )}
        </div>
      </Body>
    </Modal>
  );
}
