import type { ReactNode } from 'react';
import styled from 'styled-components';
import {
  Button,
  beginSignInBinding,
  getRuntimeConfig,
  socialSignInUrl,
  storePendingRedirect,
  theme,
  leaveTo,
} from '@portal/shared';

const Divider = styled.p`
  display: flex;
  align-items: center;
  gap: 12px;
  margin: 0;
  color: ${theme.color.muted};
  font-size: 0.875rem;
  &::before,
  &::after {
    content: '';
    flex: 1;
    border-top: 1px solid ${theme.color.border};
  }
`;

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 10px;
`;

/**
 * The other ways to sign in (`children`: the passkey of /login, first), then
 * 'Continuar con Google' / 'Continuar con Apple' hand the browser to the API, which runs the provider's flow and
 * comes back with a one-time code that only this tab can redeem: the start carries the binding of a secret the tab
 * keeps (`beginSignInBinding`). The partner target is kept both in the address and in storage for the return.
 */
export function SocialButtons({
  redirectUrl,
  disabled,
  children,
}: {
  redirectUrl: string | null;
  disabled?: boolean;
  children?: ReactNode;
}) {
  const start = async (provider: 'google' | 'apple') => {
    const { apiBaseUrl, redirectAllowList } = getRuntimeConfig();
    if (redirectUrl) storePendingRedirect(redirectUrl, redirectAllowList);
    leaveTo(socialSignInUrl(apiBaseUrl, provider, redirectUrl, await beginSignInBinding()));
  };
  return (
    <Stack>
      <Divider>o</Divider>
      {children}
      <Button $variant="secondary" $block disabled={disabled} onClick={() => void start('google')}>
        Continuar con Google
      </Button>
      <Button $variant="secondary" $block disabled={disabled} onClick={() => void start('apple')}>
        Continuar con Apple
      </Button>
    </Stack>
  );
}
