import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { Card, LogoMark, theme } from '@portal/shared';

// The page sets its own font, colour and box model: it renders inside the host and standalone alike.
const Page = styled.main`
  min-height: 100vh;
  display: flex;
  align-items: flex-start;
  justify-content: center;
  padding: 48px 16px;
  font-family: ${theme.font};
  color: ${theme.color.text};
  line-height: 1.5;
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  @media (max-width: ${theme.breakpoint.mobile}) {
    padding: 24px 12px;
  }
`;

const Panel = styled(Card)<{ $wide?: boolean }>`
  width: min(${(props) => (props.$wide ? '880px' : '440px')}, 100%);
  padding: 32px 28px;
  @media (max-width: ${theme.breakpoint.mobile}) {
    padding: 24px 18px;
  }
`;

const Brand = styled.p`
  display: flex;
  align-items: center;
  gap: 8px;
  margin: 0 0 20px;
  font-weight: 800;
`;

const Heading = styled.h1`
  margin: 0;
  font-size: 1.6rem;
  line-height: 1.25;
  &:focus { outline: none; }
`;

const Subtitle = styled.p`
  margin: 6px 0 0;
  color: ${theme.color.muted};
`;

const Body = styled.div`
  margin-top: 24px;
  display: flex;
  flex-direction: column;
  gap: 16px;
`;

/**
 * The frame of every sign-in screen: a centred card with the portal's mark, a heading and the form. `focusTitle`: the
 * heading takes the focus when the page shows and whenever it changes (a screen that replaces another in place, so
 * keyboard and screen reader users start from its top).
 */
export function AuthLayout({
  title,
  subtitle,
  focusTitle = false,
  wide = false,
  children,
}: {
  title: string;
  /** A page of steps to read beside each other on a computer (the company's setup page): a wider card. */
  wide?: boolean;
  subtitle?: ReactNode;
  focusTitle?: boolean;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusTitle) heading.current?.focus();
  }, [focusTitle, title]);
  return (
    <Page>
      <Panel $wide={wide}>
        <Brand aria-hidden="true">
          <LogoMark />
          Portal
        </Brand>
        <Heading ref={heading} tabIndex={focusTitle ? -1 : undefined}>
          {title}
        </Heading>
        {subtitle && <Subtitle>{subtitle}</Subtitle>}
        <Body>{children}</Body>
      </Panel>
    </Page>
  );
}

/**
 * `method="post"`: the sign-in pages are painted from HTML before their scripts run, and a form sent in
 * that moment (Enter in a field) would otherwise go out as a GET, with the password in the address, the history and
 * the server's logs. Posted, it reaches the static server, which sends the browser back to the page (303).
 */
export const Form = styled.form.attrs({ method: 'post' })`
  display: flex;
  flex-direction: column;
  gap: 16px;
`;

export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px 16px;
`;

export const Footer = styled.p`
  margin: 0;
  text-align: center;
  color: ${theme.color.muted};
`;

export const TextLink = styled(Link)`
  color: ${theme.color.primary};
  font-weight: 600;
`;

/** A button that reads like a link (an action that stays on the page, e.g. resending a code). */
export const LinkButton = styled.button.attrs({ type: 'button' })`
  padding: 4px 0;
  border: 0;
  background: transparent;
  color: ${theme.color.primary};
  font: inherit;
  font-weight: 600;
  text-decoration: underline;
  cursor: pointer;
  &:disabled {
    color: ${theme.color.muted};
    text-decoration: none;
    cursor: not-allowed;
  }
`;
