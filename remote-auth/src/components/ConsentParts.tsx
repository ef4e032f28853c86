// The parts of a screen that asks a person to let an app in (the consent screen of /autorizar, the device
// confirmation of /dispositivo): the explanation, the list of what the app asks for, and the two answers side by side.
import styled from 'styled-components';
import { theme } from '@portal/shared';

export const ConsentText = styled.p`
  margin: 0;
  color: ${theme.color.muted};
  strong { color: ${theme.color.text}; overflow-wrap: anywhere; }
`;

export const PermissionList = styled.ul`
  margin: 0;
  padding: 12px 14px 12px 34px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius};
  li + li { margin-top: 6px; }
`;

export const ConsentActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  > * { flex: 1 1 140px; }
`;
