import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { theme } from './theme';

export interface TabItem {
  id: string;
  label: string;
  disabled?: boolean;
}

/**
 * The tabs wrap, each in sight. With `scrolls` (many sections), on a phone they stay one row that scrolls sideways
 * instead of a stack of rows that pushes the section off the screen.
 */
const List = styled.div<{ $scrolls: boolean }>`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  border-bottom: 1px solid ${theme.color.border};
  ${(p) =>
    p.$scrolls &&
    css`
      @media (max-width: ${theme.breakpoint.mobile}) {
        flex-wrap: nowrap;
        overflow-x: auto;
        overscroll-behavior-x: contain;
        scrollbar-width: thin;
        & > [role='tab'] { flex: none; white-space: nowrap; }
      }
    `}
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
  /* Inside the tab: the row that scrolls would cut an outline drawn around it. */
  &:focus-visible { outline: 3px solid ${theme.color.primary}; outline-offset: -3px; }
`;

/**
 * WAI-ARIA tabs (with `scrolls`, on a phone one row that scrolls sideways): the arrow keys move between the enabled tabs, Home and End
 * to the first and the last, and the chosen tab is scrolled into view.
 */
export function Tabs({
  items,
  active,
  onChange,
  label,
  scrolls = false,
  children,
}: {
  items: TabItem[];
  active: string;
  onChange: (id: string) => void;
  label: string;
  /** Many sections: one row that scrolls on a phone, where wrapping would stack row after row. */
  scrolls?: boolean;
  children: ReactNode;
}) {
  const baseId = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const enabled = items.filter((item) => !item.disabled);

  // The chosen tab in sight, also one chosen before the page opened (a section's address) beyond the screen's edge.
  useEffect(() => {
    if (scrolls) refs.current[active]?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [active, scrolls]);

  function onKeyDown(event: KeyboardEvent) {
    const index = enabled.findIndex((item) => item.id === active);
    if (index < 0) return;
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % enabled.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + enabled.length) % enabled.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? enabled.length - 1
              : -1;
    const next = enabled[target];
    if (!next) return;
    event.preventDefault();
    onChange(next.id);
    refs.current[next.id]?.focus();
  }

  return (
    <div>
      <List role="tablist" aria-label={label} onKeyDown={onKeyDown} $scrolls={scrolls}>
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
