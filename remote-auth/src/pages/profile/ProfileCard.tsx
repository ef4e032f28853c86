import styled from 'styled-components';
import { planLabel, Card, shownPicture, theme, type User } from '@portal/shared';

const Side = styled(Card)`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 6px;
  text-align: center;
  h2 { margin: 8px 0 0; font-size: 1.25rem; overflow-wrap: anywhere; }
`;

const Photo = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 96px;
  height: 96px;
  border-radius: 50%;
  overflow: hidden;
  background: ${theme.color.primary};
  color: ${theme.color.primaryText};
  font-size: 2rem;
  font-weight: 700;
  img { width: 100%; height: 100%; object-fit: cover; }
`;

const Email = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  overflow-wrap: anywhere;
`;

const Plans = styled.div`
  width: 100%;
  margin-top: 16px;
  padding-top: 16px;
  border-top: 1px solid ${theme.color.border};
  text-align: left;
  h3 { margin: 0 0 8px; font-size: 1rem; }
  ul { margin: 0; padding: 0; list-style: none; display: flex; flex-direction: column; gap: 8px; }
  li { padding: 8px 10px; border-radius: 8px; background: ${theme.color.background}; }
  span { display: block; color: ${theme.color.muted}; font-size: 0.875rem; }
`;

function initials(user: User | null): string {
  return (
    [user?.name, user?.lastName]
      .map((part) => part?.trim()[0] ?? '')
      .join('')
      .toUpperCase() || '?'
  );
}

/** The side card of /perfil: photo, name, email and the plans under 'Tu plan actual'. */
export function ProfileCard({ user }: { user: User | null }) {
  const fullName = [user?.name, user?.lastName].filter(Boolean).join(' ');
  const picture = shownPicture(user?.picture);
  return (
    <Side aria-label="Tu cuenta">
      <Photo aria-hidden="true">
        {picture ? <img src={picture} alt="" referrerPolicy="no-referrer" /> : initials(user)}
      </Photo>
      <h2>{fullName}</h2>
      <Email>{user?.email}</Email>
      <Plans>
        <h3>Tu plan actual</h3>
        <ul>
          {(user?.planesUsuarios ?? []).map((entry) => (
            <li key={entry.id}>
              <strong>{entry.app ? `${entry.app.nombre}: ${planLabel(entry.plan)}` : planLabel(entry.plan)}</strong>
              {entry.plan.descripcion && <span>{entry.plan.descripcion}</span>}
            </li>
          ))}
        </ul>
      </Plans>
    </Side>
  );
}
