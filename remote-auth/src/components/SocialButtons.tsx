import { type ReactNode, useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, configuredProviders, socialSignInUrl, theme } from '@portal/shared';
import { providerUnavailable, type SocialProvider } from '../texts';
import { leaveForProviderSignIn } from './provider-sign-in';

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
 * keeps (`leaveForProviderSignIn`). The partner target is kept both in the address and in storage for the return. A
 * provider the API has no configuration for is said to be unavailable, and the page stays (docs/decisions/0072).
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
  const [unavailable, setUnavailable] = useState<SocialProvider | null>(null);
  const start = async (provider: SocialProvider) => {
    setUnavailable(null);
    // Unanswered (the API unreachable): the start itself goes on, and the API's answer says what happened.
    const configured = await configuredProviders().catch(() => null);
    if (configured && !configured[provider]) {
      setUnavailable(provider);
      return;
    }
    await leaveForProviderSignIn(redirectUrl, (apiBaseUrl, binding) =>
      socialSignInUrl(apiBaseUrl, provider, redirectUrl, binding),
    );
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
      {unavailable && <Alert tone="info">{providerUnavailable(unavailable)}</Alert>}
    </Stack>
  );
}
