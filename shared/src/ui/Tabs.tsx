import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from './theme';

export interface TabItem {
  id: string;
  label: string;
  disabled?: boolean;
}

const List = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  border-bottom: 1px solid ${theme.color.border};
`;

const Tab = styled.button<{ $active: boolean }>`
  min-height: 44px;
  padding: 0 14px;
  border: 0;
  border-bottom: 3px solid ${(p) => (p.$active ? theme.color.primary : 'transparent')};
  background: transparent;
  color: ${(p) => (p.$active ? theme.color.primary : theme.color.text)};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  &:disabled { color: ${theme.color.disabled}; cursor: not-allowed; }
`;

/** WAI-ARIA tabs: arrow keys move between the enabled tabs. */
export function Tabs({
  items,
  active,
  onChange,
  label,
  children,
}: {
  items: TabItem[];
  active: string;
  onChange: (id: string) => void;
  label: string;
  children: ReactNode;
}) {
  const baseId = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const enabled = items.filter((item) => !item.disabled);

  function onKeyDown(event: KeyboardEvent) {
    const index = enabled.findIndex((item) => item.id === active);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step || index < 0) return;
    const next = enabled[(index + step + enabled.length) % enabled.length];
    if (next) {
      onChange(next.id);
      refs.current[next.id]?.focus();
    }
  }

  return (
    <div>
      <List role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {items.map((item) => (
          <Tab
            key={item.id}
            ref={(el) => {
              refs.current[item.id] = el;
            }}
            role="tab"
            id={`${baseId}-${item.id}`}
            aria-selected={item.id === active}
            aria-controls={`${baseId}-panel`}
            tabIndex={item.id === active ? 0 : -1}
            disabled={item.disabled}
            $active={item.id === active}
            onClick={() => onChange(item.id)}
          >
            {item.label}
          </Tab>
        ))}
      </List>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${active}`}>
        {children}
      </div>
    </div>
  );
}
